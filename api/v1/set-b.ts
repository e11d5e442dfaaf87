/**
 * v1 Set B (SPEC "v1 Set B"): text, file and URL hashing, verification, batch, compare and
 * status. snake_case fields, counted against the v1 plan table's per-minute rate (limit class
 * v1b). Paths the spec leaves unshown are this service's (docs/v1.md "Decisions").
 */
import type { Router } from 'express';
import type { Principal } from '../../shared/auth/principal.js';
import { assertDecodable, decodedLength, type InputEncoding } from '../../shared/hashing/encoding.js';
import { hexDigestsEqual } from '../../shared/hashing/verify.js';
import { resolveTimeoutMs } from '../../shared/net/fetch-and-hash.js';
import { checkUrl, parseUrl } from '../../shared/net/url-policy.js';
import type { ApiDeps } from '../deps.js';
import { principalOf } from '../http/guards.js';
import { parseWith } from '../http/validate.js';
import { MiB, type z } from '../schemas/common.js';
import {
  BatchHashRequest,
  BatchVerifyRequest,
  CompareRequest,
  FileFieldsB,
  FileVerifyFields,
  TextHashRequest,
  TextVerifyRequest,
  UrlHashRequest,
} from '../schemas/v1.js';
import type { RouteTable, V1Context } from './context.js';
import { batchHashBody, batchVerifyBody, compareBody, fileHashBodyB, fileVerifyBody, statusBody, textHashBody, textVerifyBody, urlHashBody } from './render.js';
import { serviceStatus } from './service-status.js';
import { receiveValidatedUpload } from '../uploads/validated-upload.js';

export const SET_B_ROUTES: RouteTable = [
  ['/hash/text', ['POST']],
  ['/hash/file', ['POST']],
  ['/hash/url', ['POST']],
  ['/verify/text', ['POST']],
  ['/verify/file', ['POST']],
  ['/batch/hash', ['POST']],
  ['/batch/verify', ['POST']],
  ['/compare', ['POST']],
  ['/status', ['GET']],
];

export function mountSetB(router: Router, { deps, guard, json }: V1Context): void {
  const { executor } = deps;

  router.post('/hash/text', ...guard('hash'), json, async (req, res) => {
    const body = parseWith(TextHashRequest, req.body);
    assertDecodable(body.text, body.encoding, 'text');
    const result = await executor.run('hash', { data: body.text, encoding: body.encoding }, principalOf(res), decodedLength(body.text, body.encoding));
    res.json(textHashBody(result));
  });

  router.post('/hash/file', ...guard('hash'), async (req, res) => {
    const principal = principalOf(res);
    const { upload, fields } = await receiveValidatedUpload(deps, req, principal, 'v1-file', FileFieldsB);
    const result = await executor.run('file', { blob: upload.blob, filename: upload.filename, chunkSize: fields.chunk_size, output: 'hex' }, principal);
    res.json(fileHashBodyB(result, upload.filename));
  });

  router.post('/hash/url', ...guard('hash'), json, async (req, res) => {
    const body = parseWith(UrlHashRequest, req.body);
    const timeoutMs = resolveTimeoutMs(body.timeout);
    // Refuse what the URL alone rules out before queueing; the worker checks again, and checks
    // every address it dials and every redirect hop (docs/ssrf.md).
    checkUrl(parseUrl(body.url), { allowLoopback: deps.config.URL_FETCH_ALLOW_LOOPBACK });
    const principal = principalOf(res);
    // Never inline: the fetch happens on a worker, away from the API node (issue 4 §4).
    // The fetch may take up to its own timeout; wait that long (plus queueing slack) before JOB_TIMEOUT.
    const result = await executor.run('url', { url: body.url, timeoutMs, maxBytes: deps.maxUploadBytes(principal, 'v1-url') }, principal, undefined, timeoutMs + 5000);
    res.json(urlHashBody(result, body.url));
  });

  router.post('/verify/text', ...guard('verify'), json, async (req, res) => {
    res.json(await verifyText(deps, parseWith(TextVerifyRequest, req.body), principalOf(res)));
  });

  router.post('/verify/file', ...guard('verify'), async (req, res) => {
    const principal = principalOf(res);
    const { upload, fields } = await receiveValidatedUpload(deps, req, principal, 'v1-file', FileVerifyFields);
    const result = await executor.run('file', { blob: upload.blob, filename: upload.filename, chunkSize: MiB, output: 'hex' }, principal);
    res.json(fileVerifyBody(result, fields.hash, upload.filename));
  });

  router.post('/batch/hash', ...guard('hash'), json, async (req, res) => {
    const body = parseWith(BatchHashRequest, req.body);
    const result = await runBatch(deps, body.items, body.encoding, principalOf(res));
    res.json(batchHashBody(result));
  });

  router.post('/batch/verify', ...guard('verify'), json, async (req, res) => {
    const body = parseWith(BatchVerifyRequest, req.body);
    const result = await runBatch(deps, body.items, body.encoding, principalOf(res));
    res.json(batchVerifyBody(result, body.items.map((item) => item.hash)));
  });

  router.post('/compare', ...guard('verify'), json, (req, res) => {
    const body = parseWith(CompareRequest, req.body);
    res.json(compareBody(hexDigestsEqual(body.hash1, body.hash2)));
  });

  router.get('/status', ...guard('read'), async (_req, res) => {
    const principal = principalOf(res);
    const [status, usage] = await Promise.all([
      serviceStatus(deps),
      deps.limiter.usage(principal.accountId, principal.plan, res.locals.sandbox === true, principal.keyType),
    ]);
    res.json(statusBody(status, usage));
  });
}

/** Set B "Verify hash" (text); also served by /v1/verify for a Set B body. */
export async function verifyText(deps: Pick<ApiDeps, 'executor'>, body: z.output<typeof TextVerifyRequest>, principal: Principal) {
  assertDecodable(body.text, body.encoding, 'text');
  const payload = { data: body.text, encoding: body.encoding, expected: body.hash };
  const result = await deps.executor.run('verify', payload, principal, decodedLength(body.text, body.encoding));
  return textVerifyBody(result, body.hash);
}

/** One batch job for Set B's items; an item without an id gets its index ("0", "1", …). */
async function runBatch(deps: Pick<ApiDeps, 'executor'>, items: ReadonlyArray<{ id?: string | undefined; text: string }>, encoding: InputEncoding, principal: Principal) {
  let bytes = 0;
  const jobItems = items.map((item, index) => {
    assertDecodable(item.text, encoding, `items[${index}].text`);
    bytes += decodedLength(item.text, encoding);
    return { id: item.id ?? String(index), data: item.text };
  });
  return deps.executor.run('batch', { items: jobItems, encoding, parallel: true, output: 'hex' }, principal, bytes);
}
