/**
 * The /v2 route table (docs/api.md "v2 endpoints"): each route's guard, handler and OpenAPI operation, declared
 * once (api/http/route-table.ts). Handlers are parse → operation → render.
 */
import type { NextFunction, RequestHandler, Response } from 'express';
import type { DigestResult, JobPayloads } from '../../shared/jobs/contracts.js';
import { uploadBlobKey } from '../../shared/naming.js';
import type { JobState } from '../../shared/queue/types.js';
import type { ApiDeps } from '../deps.js';
import { principalOf } from '../middleware/guards.js';
import { idempotencyKeyOf, idempotencyOf } from '../http/idempotency.js';
import type { Route, RouteGroup } from '../http/route-table.js';
import { parseWith } from '../http/validate.js';
import { assertNotClientKey } from '../middleware/client-keys.js';
import { ASYNC_ERRORS, CALLER_ERRORS, errorResponses, JOB_ERRORS, json, multipartBody, okResponse, UPLOAD_ERRORS } from '../openapi-kit.js';
import { hashBatch, hashInput, hmacInput, submitBatch, verifyInput } from '../operations/digests.js';
import { jobOf } from '../operations/jobs.js';
import { submitUpload, uploadReceiver } from '../operations/uploads.js';
import { webhookTargetOf } from '../operations/webhook-target.js';
import { type Body, z } from '../schemas/common.js';
import type { Receipt } from '../schemas/proof.js';
import * as v2 from '../schemas/v2.js';
import { receiveRawBody } from '../uploads/raw-body.js';
import { receiveValidatedUpload } from '../uploads/validated-upload.js';
import { acceptedResponse, idempotencyKeyHeader } from './openapi.js';
import { sendJson } from '../http/send-json.js';
import { ReceiptAnswer, receiptBody } from '../http/receipt-body.js';
import { jobReceipt, logDigest, logDigestTo } from '../operations/proof.js';
import { batchBody, fileBody, hashBody, hmacBody, jobStatusBody, streamBody, timingSince, verifyBody } from './render.js';

const ASYNC_JOB_ERRORS = [...ASYNC_ERRORS, ...JOB_ERRORS];

/** X-Expected-SHA224 as the document names it (the schema reads it lower-cased, as Node presents headers). */
const expectedDigestHeader = z.object({ 'X-Expected-SHA224': v2.ExpectedDigestHeaders.shape['x-expected-sha224'] });

/** Client keys may not start async jobs (api/middleware/client-keys.ts); checked before any body is read. */
const asyncJobsNotForClientKeys: RequestHandler = function asyncNotForClientKeys(req, res, next) {
  const principal = res.locals.principal;
  if (principal && parseWith(v2.AsyncQuery, req.query).async) assertNotClientKey(principal, 'start async jobs');
  next();
};

/** When the request began: authenticating, reading and parsing are part of the work (a 1000-item batch spends most of its time there). */
const arrivalOf = (res: Response): number => res.locals.receivedAtMs ?? performance.now();

/** `answer` with a result computed in this turn, or once the queued job's promise settles. */
function settle<T>(result: T | Promise<T>, answer: (value: T) => void | Promise<void>): void | Promise<void> {
  return result instanceof Promise ? result.then(answer) : answer(result);
}

export const V2_ROUTES: readonly Route[] = [
  {
    method: 'post',
    path: '/hash',
    hot: true,
    permission: 'hash',
    body: 'json',
    handle({ deps }, req, res, next) {
      const body = parseWith(v2.HashRequest, req.body);
      const started = arrivalOf(res);
      // `"log": true` (docs/proving.md): the digest goes into the transparency log and the answer carries its receipt.
      if (body.log) return hashAndLog(deps, res, next, body, started);
      return settle(hashInput(deps, principalOf(res), body.input), (result) =>
        sendJson(res, hashBody(result, body.output, timingSince(started))),
      );
    },
    doc: { operationId: 'hashV2', summary: 'SHA-224 of data', errors: JOB_ERRORS, request: v2.HashRequest, response: v2.HashResponse },
  },
  {
    method: 'post',
    path: '/verify',
    hot: true,
    permission: 'verify',
    body: 'json',
    handle({ deps }, req, res) {
      const body = parseWith(v2.VerifyRequest, req.body);
      return settle(verifyInput(deps, principalOf(res), body.input, body.expected), (result) =>
        sendJson(res, verifyBody(result, body.expected)),
      );
    },
    doc: {
      operationId: 'verifyV2',
      summary: 'Verify data against a SHA-224 digest (constant-time)',
      errors: JOB_ERRORS,
      request: v2.VerifyRequest,
      response: v2.VerifyResponse,
    },
  },
  {
    method: 'post',
    path: '/hmac',
    hot: true,
    permission: 'hash',
    body: 'json',
    handle({ deps }, req, res) {
      const body = parseWith(v2.HmacRequest, req.body);
      const started = arrivalOf(res);
      return settle(hmacInput(deps, principalOf(res), body.input, body.key), (result) =>
        sendJson(res, hmacBody(result, body.output, timingSince(started))),
      );
    },
    doc: { operationId: 'hmacV2', summary: 'HMAC-SHA-224', errors: JOB_ERRORS, request: v2.HmacRequest, response: v2.HmacResponse },
  },
  {
    method: 'post',
    path: '/batch',
    hot: true,
    permission: 'hash',
    body: 'json',
    before: [asyncJobsNotForClientKeys],
    async handle({ deps }, req, res) {
      const query = parseWith(v2.AsyncQuery, req.query);
      const body = parseWith(v2.BatchRequest, req.body);
      const started = arrivalOf(res);
      const principal = principalOf(res);
      const webhook = await webhookTargetOf(deps, principal, query);
      if (query.async)
        return accepted(deps, res, await submitBatch(deps, principal, body, idempotencyOf(req, res.locals.bodyDigest), webhook));
      const result = await hashBatch(deps, principal, body);
      res.json(batchBody(result, body.output, timingSince(started)));
    },
    doc: {
      operationId: 'batchV2',
      summary: 'Hash up to 1000 items; `?async=true` answers 202 with a job',
      custom: (gen) => ({
        request: { query: v2.AsyncQuery, headers: idempotencyKeyHeader, body: { ...json(v2.BatchRequest), required: true } },
        responses: {
          ...okResponse(gen, v2.BatchResponse),
          ...acceptedResponse(gen),
          ...errorResponses(gen, [...CALLER_ERRORS, 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', ...ASYNC_JOB_ERRORS]),
        },
      }),
    },
  },
  {
    method: 'post',
    path: '/file',
    permission: 'hash',
    before: [asyncJobsNotForClientKeys],
    async handle({ deps }, req, res) {
      const query = parseWith(v2.AsyncQuery, req.query);
      const expected = parseWith(v2.ExpectedDigestHeaders, req.headers)['x-expected-sha224'];
      const wantsReplay = idempotencyKeyOf(req) !== undefined && query.async;
      const principal = principalOf(res);
      const webhook = await webhookTargetOf(deps, principal, query);
      const started = performance.now();
      const receiver = uploadReceiver(deps, query);
      const { upload, fields } = await receiveValidatedUpload(deps, req, res, principal, 'v2-file', v2.FileFields, {
        digest: wantsReplay,
        blobs: receiver.blobs,
      });
      const payload: JobPayloads['file'] = {
        blob: upload.blob,
        filename: upload.filename,
        chunkSize: fields.chunk_size,
        output: fields.output,
        ...(expected === undefined ? {} : { mustMatch: expected }),
        ...(fields.log ? { log: true as const } : {}),
      };
      if (query.async)
        return accepted(deps, res, await submitUpload(deps, 'file', payload, principal, idempotencyOf(req, upload.digest), webhook));
      const result = await receiver.hash('file', payload, principal);
      const body = fileBody(result, payload, timingSince(started));
      res.json(fields.log ? { ...body, receipt: await logged(deps, res, result, 'file') } : body);
    },
    doc: {
      operationId: 'fileV2',
      summary: 'SHA-224 of an uploaded file; `?async=true` answers 202 with a job',
      custom: (gen) => ({
        request: {
          query: v2.AsyncQuery,
          headers: idempotencyKeyHeader.extend(expectedDigestHeader.shape),
          body: multipartBody(
            v2.FileFields,
            "The file to hash (required, exactly one part). Up to the plan's /v2/file size limit; larger files belong in /v2/stream.",
          ),
        },
        responses: {
          ...okResponse(gen, v2.FileResponse),
          ...acceptedResponse(gen),
          ...errorResponses(gen, [...CALLER_ERRORS, ...UPLOAD_ERRORS, ...ASYNC_JOB_ERRORS, 'HASH_MISMATCH']),
        },
      }),
    },
  },
  {
    method: 'post',
    path: '/stream',
    permission: 'hash',
    before: [asyncJobsNotForClientKeys],
    async handle({ deps }, req, res) {
      const query = parseWith(v2.StreamQuery, req.query);
      const expected = parseWith(v2.ExpectedDigestHeaders, req.headers)['x-expected-sha224'];
      const wantsReplay = idempotencyKeyOf(req) !== undefined && query.async;
      const principal = principalOf(res);
      const webhook = await webhookTargetOf(deps, principal, query);
      const started = performance.now();
      const receiver = uploadReceiver(deps, query);
      const { blob, digest } = await receiveRawBody(req, res, {
        blobs: receiver.blobs,
        key: uploadBlobKey(principal.accountId),
        maxBytes: deps.maxUploadBytes(principal, 'v2-stream'),
        drainMaxBytes: deps.config.UPLOAD_DRAIN_MAX_BYTES,
        digest: wantsReplay,
      });
      const payload: JobPayloads['stream'] = {
        blob,
        chunkSize: query.chunk_size,
        output: query.output,
        ...(expected === undefined ? {} : { mustMatch: expected }),
        ...(query.log ? { log: true as const } : {}),
      };
      if (query.async)
        return accepted(deps, res, await submitUpload(deps, 'stream', payload, principal, idempotencyOf(req, digest), webhook));
      const result = await receiver.hash('stream', payload, principal);
      const body = streamBody(result, payload, timingSince(started));
      res.json(query.log ? { ...body, receipt: await logged(deps, res, result, 'stream') } : body);
    },
    doc: {
      operationId: 'streamV2',
      summary: 'SHA-224 of a raw application/octet-stream body (chunked); `?async=true` answers 202 with a job',
      custom: (gen) => ({
        request: {
          query: v2.StreamQuery,
          headers: idempotencyKeyHeader.extend(expectedDigestHeader.shape),
          body: {
            required: true,
            content: {
              'application/octet-stream': {
                schema: z.string().openapi({ type: 'string', format: 'binary', description: 'The bytes to hash' }),
              },
            },
          },
        },
        responses: {
          ...okResponse(gen, v2.StreamResponse),
          ...acceptedResponse(gen),
          ...errorResponses(gen, [...CALLER_ERRORS, ...UPLOAD_ERRORS, ...ASYNC_JOB_ERRORS, 'HASH_MISMATCH']),
        },
      }),
    },
  },
  {
    method: 'get',
    path: '/jobs/:id',
    permission: 'jobs',
    async handle({ deps }, req, res) {
      const record = await jobOf(deps, principalOf(res), String(req.params.id));
      // A completed job that asked for `log` is logged on its first read (docs/proving.md "Logging a job's digest").
      const receipt = await jobReceipt(deps, record);
      res.json(receipt ? { ...jobStatusBody(record), receipt: receiptBody(receipt) } : jobStatusBody(record));
    },
    doc: {
      operationId: 'getJobV2',
      summary: 'State of a job; when completed, the body its synchronous call would have returned',
      description:
        "Another account's job is reported as absent (404), so ids cannot be probed. Finished jobs are kept JOB_RETENTION_SECONDS (24 h).",
      custom: (gen) => ({
        request: {
          params: z.object({ id: z.string().min(1).openapi({ description: 'The `job_id` of a 202 answer or of a JOB_TIMEOUT error' }) }),
        },
        responses: { ...okResponse(gen, v2.JobStatus), ...errorResponses(gen, [...CALLER_ERRORS, 'NOT_FOUND']) },
      }),
    },
  },
];

/**
 * The rest of /v2, each group in its own file and loaded, with its schemas, on the first request
 * under its prefixes (api/http/route-table.ts RouteGroup): a cold start's first request needs none
 * of them. api/openapi.ts documents them after V2_ROUTES, in this order.
 */
export const V2_ROUTE_GROUPS: readonly RouteGroup[] = [
  // Resumable uploads (tus 1.0).
  {
    name: 'the resumable upload routes',
    prefixes: ['/uploads'],
    load: async () => (await import('./upload-routes.js')).UPLOAD_ROUTES,
  },
  // Proof of existence: /log, /receipts/:id, /log/consistency, /timestamp.
  {
    name: 'the proof routes',
    prefixes: ['/log', '/receipts', '/timestamp'],
    load: async () => (await import('./proof-routes.js')).PROOF_ROUTES,
  },
  // Bulk jobs: /bulk, /bulk/:id, /bulk/:id/results.
  { name: 'the bulk routes', prefixes: ['/bulk'], load: async () => (await import('./bulk-routes.js')).BULK_ROUTES },
];

/** 202 for a submitted job; a replayed Idempotency-Key reports the first job's current state. */
async function accepted(deps: Pick<ApiDeps, 'queue'>, res: Response, job: { id: string; created: boolean }): Promise<void> {
  const statusUrl = `/v2/jobs/${job.id}`;
  res.setHeader('Location', statusUrl);
  let status: JobState = 'queued';
  if (!job.created) {
    res.setHeader('Idempotent-Replayed', 'true');
    status = (await deps.queue.get(job.id))?.state ?? 'queued';
  }
  res.status(202).json({ success: true, job_id: job.id, status, status_url: statusUrl });
}

/** The receipt of a synchronous file or stream answer with `log`: its digest logged once computed. */
async function logged(deps: ApiDeps, res: Response, result: DigestResult, source: 'file' | 'stream'): Promise<Body<typeof Receipt>> {
  return receiptBody(await logDigest(deps, principalOf(res), { digest: result.digest, length: result.size, source }));
}

/**
 * /v2/hash with `"log": true`: the digest is logged once computed, and the answer carries its
 * receipt. Inline input is hashed in this turn, and the answer is handed to the log
 * (ReceiptAnswer): the request waits for its batch with no promise of its own.
 */
function hashAndLog(
  deps: ApiDeps,
  res: Response,
  next: NextFunction,
  body: z.output<typeof v2.HashRequest>,
  started: number,
): void | Promise<void> {
  const principal = principalOf(res);
  return settle(hashInput(deps, principal, body.input), (result) =>
    logDigestTo(
      deps,
      principal,
      { digest: result.digest, length: result.size, source: 'data' },
      new ReceiptAnswer(res, next, () => hashBody(result, body.output, timingSince(started))),
    ),
  );
}
