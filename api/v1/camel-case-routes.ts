/**
 * v1 Set A (docs/api.md "v1 Set A"): /hash, /verify, /file/hash, /hmac, /usage. camelCase fields,
 * `algorithm: 'sha224'`, counted against the v1 tier table's per-second rate (limit class v1a).
 */
import { invalidInput } from '../../shared/errors.js';
import { principalOf } from '../middleware/guards.js';
import type { Route } from '../http/route-table.js';
import { parseWith } from '../http/validate.js';
import { CALLER_ERRORS, errorResponses, json, JSON_BODY_ERRORS, okResponse } from '../openapi-kit.js';
import { usageOf } from '../operations/account.js';
import { hashInput, hmacInput, verifyInput } from '../operations/digests.js';
import { uploadReceiver } from '../operations/uploads.js';
import { MiB } from '../schemas/common.js';
import * as v1 from '../schemas/v1.js';
import { receiveValidatedUpload } from '../uploads/validated-upload.js';
import { camelFileHashBody, camelHashBody, camelHmacBody, textVerifyBody, camelUsageBody, camelVerifyBody } from './render.js';

/** The file part's description in the OpenAPI document, for every v1 upload route. */
export const fileOf = (what: string): string => `The file to ${what} (required, exactly one part), up to the plan's v1 file size limit.`;

export const CAMEL_CASE_ROUTES: readonly Route[] = [
  {
    method: 'post',
    path: '/hash',
    hot: true,
    permission: 'hash',
    body: 'json',
    async handle({ deps }, req, res) {
      const body = parseWith(v1.CamelHashRequest, req.body);
      res.json(camelHashBody(await hashInput(deps, principalOf(res), body.input), body.output));
    },
    doc: {
      operationId: 'hashV1',
      summary: 'SHA-224 of data (Set A)',
      errors: ['JOB_TIMEOUT'],
      request: v1.CamelHashRequest,
      response: v1.CamelHashResponse,
    },
  },
  {
    method: 'post',
    path: '/verify',
    hot: true,
    permission: 'verify',
    body: 'json',
    async handle({ deps }, req, res) {
      if (isSetBVerifyBody(req.body)) {
        const body = parseWith(v1.TextVerifyRequest, req.body);
        res.json(textVerifyBody(await verifyInput(deps, principalOf(res), body.input, body.expected), body.expected));
        return;
      }
      const body = parseWith(v1.CamelVerifyRequest, req.body);
      res.json(camelVerifyBody(await verifyInput(deps, principalOf(res), body.input, body.expected)));
    },
    doc: {
      operationId: 'verifyV1',
      summary: 'Verify data against a SHA-224 digest (Set A body; a Set B body with `text` answers in Set B shape)',
      custom: (gen) => ({
        request: { body: { ...json(v1.CamelVerifyRequest.or(v1.TextVerifyRequest)), required: true } },
        responses: {
          ...okResponse(gen, v1.CamelVerifyResponse.or(v1.TextVerifyResponse)),
          ...errorResponses(gen, [...CALLER_ERRORS, ...JSON_BODY_ERRORS, 'JOB_TIMEOUT']),
        },
      }),
    },
  },
  {
    method: 'post',
    path: '/file/hash',
    permission: 'hash',
    async handle({ deps }, req, res) {
      const principal = principalOf(res);
      const receiver = uploadReceiver(deps, { async: false });
      const { upload, fields } = await receiveValidatedUpload(deps, req, res, principal, 'v1-file', v1.FileFieldsA, {
        blobs: receiver.blobs,
      });
      const payload = { blob: upload.blob, filename: upload.filename, chunkSize: MiB, output: fields.outputFormat };
      const result = await receiver.hash('file', payload, principal);
      res.json(camelFileHashBody(result, upload.filename, fields.outputFormat));
    },
    doc: {
      operationId: 'fileHashV1',
      summary: 'SHA-224 of an uploaded file (Set A)',
      errors: ['JOB_TIMEOUT'],
      upload: v1.FileFieldsA,
      file: fileOf('hash'),
      response: v1.CamelFileHashResponse,
    },
  },
  {
    method: 'post',
    path: '/hmac',
    hot: true,
    permission: 'hash',
    body: 'json',
    async handle({ deps }, req, res) {
      const body = parseWith(v1.CamelHmacRequest, req.body);
      res.json(camelHmacBody(await hmacInput(deps, principalOf(res), body.input, body.key), body.output));
    },
    doc: {
      operationId: 'hmacV1',
      summary: 'HMAC-SHA-224 (Set A)',
      errors: ['JOB_TIMEOUT'],
      request: v1.CamelHmacRequest,
      response: v1.CamelHmacResponse,
    },
  },
  {
    method: 'get',
    path: '/usage',
    outsideQuota: true,
    permission: 'read',
    async handle({ deps }, _req, res) {
      const principal = principalOf(res);
      const usage = await usageOf(deps, principal, res.locals.sandbox === true);
      res.json(camelUsageBody(usage, deps.maxUploadBytes(principal, 'v1-file')));
    },
    doc: { operationId: 'getUsageV1', summary: 'Account usage and quota (Set A)', response: v1.CamelUsageResponse },
  },
];

/**
 * /v1/verify also takes Set B's text body and then answers in Set B's shape: a body
 * with `text` and no `data` is Set B's; one with both is ambiguous and refused.
 */
function isSetBVerifyBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  if (!('text' in body)) return false;
  if ('data' in body) throw invalidInput('text', 'give either data (Set A) or text (Set B), not both');
  return true;
}
