import { Router, type RequestHandler } from 'express';
import type { Permission, Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import { assertDecodable, decodedLength } from '../../shared/hashing/encoding.js';
import type { JobKind, JobPayloads } from '../../shared/jobs/contracts.js';
import { uploadBlobKey } from '../../shared/naming.js';
import type { JobState } from '../../shared/queue/types.js';
import type { ApiDeps } from '../deps.js';
import { renderV2Error } from '../http/envelopes.js';
import { errorHandler, notFound } from '../http/error-handler.js';
import { guardFactory, idempotencyKeyOf, jsonBody, methodNotAllowed, principalOf } from '../http/guards.js';
import { parseWith } from '../http/validate.js';
import { corsPreflight } from '../middleware/cors.js';
import { receiveValidatedUpload } from '../uploads/validated-upload.js';
import { receiveRawBody } from '../uploads/raw-body.js';
import { AsyncQuery, BatchRequest, FileFields, HashRequest, HmacRequest, StreamQuery, VerifyRequest } from '../schemas/v2.js';
import { batchBody, fileBody, hashBody, hmacBody, jobStatusBody, streamBody, timingSince, verifyBody } from './render.js';

/** The /v2 generation (SPEC "v2"). */
export function createV2Router(deps: ApiDeps): Router {
  const router = Router();
  const v2Guard = guardFactory(deps, 'v2');
  const guard = (permission: Permission) => v2Guard(permission, 'v2');
  const json = jsonBody(deps.config.MAX_JSON_BYTES);
  const { executor, blobs } = deps;

  router.use(corsPreflight({ anyClientKeyAllows: deps.anyClientKeyAllows }));

  router.post('/hash', ...guard('hash'), json, async (req, res) => {
    const body = parseWith(HashRequest, req.body);
    const started = performance.now();
    assertDecodable(body.data, body.encoding);
    const result = await executor.run('hash', { data: body.data, encoding: body.encoding }, principalOf(res), decodedLength(body.data, body.encoding));
    res.json(hashBody(result, body.output, timingSince(started)));
  });

  router.post('/verify', ...guard('verify'), json, async (req, res) => {
    const body = parseWith(VerifyRequest, req.body);
    assertDecodable(body.data, body.encoding);
    const payload = { data: body.data, encoding: body.encoding, expected: body.hash };
    const result = await executor.run('verify', payload, principalOf(res), decodedLength(body.data, body.encoding));
    res.json(verifyBody(result, body.hash));
  });

  router.post('/hmac', ...guard('hash'), json, async (req, res) => {
    const body = parseWith(HmacRequest, req.body);
    const started = performance.now();
    assertDecodable(body.data, body.encoding);
    assertDecodable(body.key, body.key_encoding, 'key');
    const payload = { data: body.data, encoding: body.encoding, key: body.key, keyEncoding: body.key_encoding };
    const bytes = decodedLength(body.data, body.encoding) + decodedLength(body.key, body.key_encoding);
    const result = await executor.run('hmac', payload, principalOf(res), bytes);
    res.json(hmacBody(result, body.output, timingSince(started)));
  });

  router.post('/batch', ...guard('hash'), json, async (req, res) => {
    const query = parseWith(AsyncQuery, req.query);
    const body = parseWith(BatchRequest, req.body);
    const started = performance.now();
    let bytes = 0;
    body.items.forEach((item, index) => {
      assertDecodable(item.data, body.encoding, `items[${index}].data`);
      bytes += decodedLength(item.data, body.encoding);
    });
    const payload = { items: body.items, encoding: body.encoding, parallel: body.parallel, output: body.output };
    const principal = principalOf(res);
    if (query.async) return accepted(deps, res, await executor.submit('batch', payload, principal, idempotencyKeyOf(req)));
    const result = await executor.run('batch', payload, principal, bytes);
    res.json(batchBody(result, body.output, timingSince(started)));
  });

  router.post('/file', ...guard('hash'), async (req, res) => {
    const query = parseWith(AsyncQuery, req.query);
    const idempotencyKey = idempotencyKeyOf(req);
    const principal = principalOf(res);
    const started = performance.now();
    const { upload, fields } = await receiveValidatedUpload(deps, req, principal, 'v2-file', FileFields);
    const payload: JobPayloads['file'] = { blob: upload.blob, filename: upload.filename, chunkSize: fields.chunk_size, output: fields.output };
    if (query.async) return accepted(deps, res, await submitUpload(deps, 'file', payload, principal, idempotencyKey));
    const result = await executor.run('file', payload, principal);
    res.json(fileBody(result, payload, timingSince(started)));
  });

  router.post('/stream', ...guard('hash'), async (req, res) => {
    const query = parseWith(StreamQuery, req.query);
    const idempotencyKey = idempotencyKeyOf(req);
    const principal = principalOf(res);
    const started = performance.now();
    const blob = await receiveRawBody(req, { blobs, key: uploadBlobKey(principal.accountId), maxBytes: deps.maxUploadBytes(principal, 'v2-stream') });
    const payload: JobPayloads['stream'] = { blob, chunkSize: query.chunk_size, output: query.output };
    if (query.async) return accepted(deps, res, await submitUpload(deps, 'stream', payload, principal, idempotencyKey));
    const result = await executor.run('stream', payload, principal);
    res.json(streamBody(result, payload, timingSince(started)));
  });

  router.get('/jobs/:id', ...guard('jobs'), async (req, res) => {
    const record = await deps.queue.get(String(req.params.id));
    // Another account's job is reported as absent, so ids cannot be probed.
    if (!record || record.accountId !== principalOf(res).accountId) throw new ServiceError('NOT_FOUND', { details: 'no such job' });
    res.json(jobStatusBody(record));
  });

  for (const [path, methods] of [['/hash', ['POST']], ['/verify', ['POST']], ['/hmac', ['POST']], ['/batch', ['POST']], ['/file', ['POST']], ['/stream', ['POST']], ['/jobs/:id', ['GET']]] as const) {
    router.all(path, methodNotAllowed(methods));
  }
  router.use(notFound(renderV2Error));
  router.use(errorHandler({ render: renderV2Error, logger: deps.logger }));
  return router;
}

type Res = Parameters<RequestHandler>[1];

/** 202 for a submitted job; a replayed Idempotency-Key reports the first job's current state. */
async function accepted(deps: ApiDeps, res: Res, job: { id: string; created: boolean }): Promise<void> {
  const statusUrl = `/v2/jobs/${job.id}`;
  res.setHeader('Location', statusUrl);
  let status: JobState = 'queued';
  if (!job.created) {
    res.setHeader('Idempotent-Replayed', 'true');
    status = (await deps.queue.get(job.id))?.state ?? 'queued';
  }
  res.status(202).json({ success: true, job_id: job.id, status, status_url: statusUrl });
}

/** An idempotent replay reuses the first job; the bytes uploaded again are not needed. */
async function submitUpload<K extends Extract<JobKind, 'file' | 'stream'>>(
  deps: ApiDeps,
  kind: K,
  payload: JobPayloads[K],
  principal: Principal,
  idempotencyKey: string | undefined,
): Promise<{ id: string; created: boolean }> {
  const job = await deps.executor.submit(kind, payload, principal, idempotencyKey);
  if (!job.created) await deps.blobs.delete(payload.blob.key);
  return job;
}
