/**
 * v1 Set A (SPEC "v1 Set A"): /hash, /verify, /file/hash, /hmac, /usage. camelCase fields,
 * `algorithm: 'sha224'`, counted against the v1 tier table's per-second rate (limit class v1a).
 */
import type { Router } from 'express';
import { invalidInput } from '../../shared/errors.js';
import { assertDecodable, decodedLength } from '../../shared/hashing/encoding.js';
import { principalOf } from '../http/guards.js';
import { parseWith } from '../http/validate.js';
import { MiB } from '../schemas/common.js';
import { FileFieldsA, HashRequestA, HmacRequestA, TextVerifyRequest, VerifyRequestA } from '../schemas/v1.js';
import type { RouteTable, V1Context } from './context.js';
import { fileHashBodyA, hashBodyA, hmacBodyA, usageBodyA, verifyBodyA } from './render.js';
import { verifyText } from './set-b.js';
import { receiveValidatedUpload } from '../uploads/validated-upload.js';

export const SET_A_ROUTES: RouteTable = [
  ['/hash', ['POST']],
  ['/verify', ['POST']],
  ['/file/hash', ['POST']],
  ['/hmac', ['POST']],
  ['/usage', ['GET']],
];

export function mountSetA(router: Router, { deps, guard, json }: V1Context): void {
  const { executor } = deps;

  router.post('/hash', ...guard('hash'), json, async (req, res) => {
    const body = parseWith(HashRequestA, req.body);
    assertDecodable(body.data, body.encoding);
    const result = await executor.run('hash', { data: body.data, encoding: body.encoding }, principalOf(res), decodedLength(body.data, body.encoding));
    res.json(hashBodyA(result, body.outputFormat));
  });

  router.post('/verify', ...guard('verify'), json, async (req, res) => {
    if (isSetBVerifyBody(req.body)) {
      res.json(await verifyText(deps, parseWith(TextVerifyRequest, req.body), principalOf(res)));
      return;
    }
    const body = parseWith(VerifyRequestA, req.body);
    assertDecodable(body.data, body.encoding);
    const payload = { data: body.data, encoding: body.encoding, expected: body.hash };
    const result = await executor.run('verify', payload, principalOf(res), decodedLength(body.data, body.encoding));
    res.json(verifyBodyA(result));
  });

  router.post('/file/hash', ...guard('hash'), async (req, res) => {
    const principal = principalOf(res);
    const { upload, fields } = await receiveValidatedUpload(deps, req, principal, 'v1-file', FileFieldsA);
    const payload = { blob: upload.blob, filename: upload.filename, chunkSize: MiB, output: fields.outputFormat };
    const result = await executor.run('file', payload, principal);
    res.json(fileHashBodyA(result, upload.filename, fields.outputFormat));
  });

  router.post('/hmac', ...guard('hash'), json, async (req, res) => {
    const body = parseWith(HmacRequestA, req.body);
    assertDecodable(body.data, body.encoding);
    assertDecodable(body.key, body.keyEncoding, 'key');
    const payload = { data: body.data, encoding: body.encoding, key: body.key, keyEncoding: body.keyEncoding };
    const bytes = decodedLength(body.data, body.encoding) + decodedLength(body.key, body.keyEncoding);
    const result = await executor.run('hmac', payload, principalOf(res), bytes);
    res.json(hmacBodyA(result, body.outputFormat));
  });

  router.get('/usage', ...guard('read'), async (_req, res) => {
    const principal = principalOf(res);
    const usage = await deps.limiter.usage(principal.accountId, principal.plan, res.locals.sandbox === true, principal.keyType);
    res.json(usageBodyA(usage, deps.maxUploadBytes(principal, 'v1-file')));
  });
}

/**
 * /v1/verify also takes Set B's text body and then answers in Set B's shape (issue 4 §2): a body
 * with `text` and no `data` is Set B's; one with both is ambiguous and refused.
 */
function isSetBVerifyBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  if (!('text' in body)) return false;
  if ('data' in body) throw invalidInput('text', 'give either data (Set A) or text (Set B), not both');
  return true;
}
