/**
 * v1 Set B (docs/api.md "v1 Set B"): text, file and URL hashing, verification, batch, compare and
 * status. snake_case fields, counted against the v1 plan table's per-minute rate (limit class
 * v1b). Paths the contract leaves unshown are this service's (docs/v1.md "Decisions").
 */
import { principalOf } from '../middleware/guards.js';
import type { Route } from '../http/route-table.js';
import { parseWith } from '../http/validate.js';
import { refuseClientKeys } from '../middleware/client-keys.js';
import { statusOf } from '../operations/account.js';
import { compareDigests, hashBatch, hashInput, hashUrl, verifyInput } from '../operations/digests.js';
import { logDigest } from '../operations/proof.js';
import { ServiceError } from '../../shared/errors.js';
import { receiptBody } from '../http/receipt-body.js';
import { uploadReceiver } from '../operations/uploads.js';
import { MiB } from '../schemas/common.js';
import * as v1 from '../schemas/v1.js';
import { receiveValidatedUpload } from '../uploads/validated-upload.js';
import {
  batchHashBody,
  batchVerifyBody,
  compareBody,
  snakeFileHashBody,
  fileVerifyBody,
  statusBody,
  textHashBody,
  textVerifyBody,
  urlHashBody,
} from './render.js';
import { fileOf } from './camel-case-routes.js';

/** Set B's batches hash every item the same way: in parallel, as hex (docs/api.md "v1 Set B" batch). */
const SNAKE_CASE_BATCH = { parallel: true, output: 'hex' } as const;

export const SNAKE_CASE_ROUTES: readonly Route[] = [
  {
    method: 'post',
    path: '/hash/text',
    hot: true,
    permission: 'hash',
    body: 'json',
    async handle({ deps }, req, res) {
      const body = parseWith(v1.TextHashRequest, req.body);
      res.json(textHashBody(await hashInput(deps, principalOf(res), body.input)));
    },
    doc: {
      operationId: 'hashTextV1',
      summary: 'SHA-224 of text (Set B)',
      errors: ['JOB_TIMEOUT'],
      request: v1.TextHashRequest,
      response: v1.TextHashResponse,
    },
  },
  {
    method: 'post',
    path: '/hash/file',
    permission: 'hash',
    async handle({ deps }, req, res) {
      const principal = principalOf(res);
      const receiver = uploadReceiver(deps, { async: false });
      const { upload, fields } = await receiveValidatedUpload(deps, req, res, principal, 'v1-file', v1.FileFieldsB, {
        blobs: receiver.blobs,
      });
      const payload = { blob: upload.blob, filename: upload.filename, chunkSize: fields.chunk_size, output: 'hex' as const };
      res.json(snakeFileHashBody(await receiver.hash('file', payload, principal), upload.filename));
    },
    doc: {
      operationId: 'hashFileV1',
      summary: 'SHA-224 of an uploaded file (Set B)',
      errors: ['JOB_TIMEOUT'],
      upload: v1.FileFieldsB,
      file: fileOf('hash'),
      response: v1.SnakeFileHashResponse,
    },
  },
  {
    method: 'post',
    path: '/hash/url',
    permission: 'hash',
    before: [refuseClientKeys('hash URLs')],
    body: 'json',
    async handle({ deps }, req, res) {
      const body = parseWith(v1.UrlHashRequest, req.body);
      // The log is public and permanent (docs/proving.md); sandbox traffic is for trying things
      // out (docs/api.md "Overview"), so it never writes a leaf (docs/decisions.md "Proof of existence").
      if (body.log && res.locals.sandbox === true) {
        throw new ServiceError('INVALID_INPUT', { message: 'The sandbox does not write to the transparency log', details: 'field: log' });
      }
      const principal = principalOf(res);
      const result = await hashUrl(deps, principal, body);
      if (body.log) {
        // `"log": true` (docs/proving.md): the fetched body's digest is logged and the answer carries its receipt.
        const logged = await logDigest(deps, principal, { digest: result.digest, length: result.size, source: 'url' });
        res.json({ ...urlHashBody(result, body.url), receipt: receiptBody(logged) });
      } else res.json(urlHashBody(result, body.url));
    },
    doc: {
      operationId: 'hashUrlV1',
      summary: 'Fetch a URL and hash its body (Set B)',
      description: 'Client keys may not hash URLs (403). Only public addresses are fetched (docs/ssrf.md).',
      errors: ['URL_NOT_ALLOWED', 'URL_FETCH_FAILED', 'FILE_TOO_LARGE', 'JOB_TIMEOUT'],
      request: v1.UrlHashRequest,
      response: v1.UrlHashResponse,
    },
  },
  {
    method: 'post',
    path: '/verify/text',
    hot: true,
    permission: 'verify',
    body: 'json',
    async handle({ deps }, req, res) {
      const body = parseWith(v1.TextVerifyRequest, req.body);
      res.json(textVerifyBody(await verifyInput(deps, principalOf(res), body.input, body.expected), body.expected));
    },
    doc: {
      operationId: 'verifyTextV1',
      summary: 'Verify text against a SHA-224 digest (Set B)',
      errors: ['JOB_TIMEOUT'],
      request: v1.TextVerifyRequest,
      response: v1.TextVerifyResponse,
    },
  },
  {
    method: 'post',
    path: '/verify/file',
    permission: 'verify',
    async handle({ deps }, req, res) {
      const principal = principalOf(res);
      const receiver = uploadReceiver(deps, { async: false });
      const { upload, fields } = await receiveValidatedUpload(deps, req, res, principal, 'v1-file', v1.FileVerifyFields, {
        blobs: receiver.blobs,
      });
      const payload = { blob: upload.blob, filename: upload.filename, chunkSize: MiB, output: 'hex' as const, expected: fields.hash };
      res.json(fileVerifyBody(await receiver.hash('file', payload, principal), fields.hash, upload.filename));
    },
    doc: {
      operationId: 'verifyFileV1',
      summary: 'Verify an uploaded file against a SHA-224 digest (Set B)',
      errors: ['JOB_TIMEOUT'],
      upload: v1.FileVerifyFields,
      file: fileOf('verify'),
      response: v1.FileVerifyResponse,
    },
  },
  {
    method: 'post',
    path: '/batch/hash',
    permission: 'hash',
    body: 'json',
    async handle({ deps }, req, res) {
      const body = parseWith(v1.BatchHashRequest, req.body);
      res.json(batchHashBody(await hashBatch(deps, principalOf(res), { ...body, ...SNAKE_CASE_BATCH })));
    },
    doc: {
      operationId: 'batchHashV1',
      summary: 'Hash up to 1000 texts (Set B)',
      errors: ['JOB_TIMEOUT'],
      request: v1.BatchHashRequest,
      response: v1.BatchHashResponse,
    },
  },
  {
    method: 'post',
    path: '/batch/verify',
    permission: 'verify',
    body: 'json',
    async handle({ deps }, req, res) {
      const body = parseWith(v1.BatchVerifyRequest, req.body);
      res.json(batchVerifyBody(await hashBatch(deps, principalOf(res), { ...body, ...SNAKE_CASE_BATCH }), body.items));
    },
    doc: {
      operationId: 'batchVerifyV1',
      summary: 'Verify up to 1000 texts (Set B)',
      errors: ['JOB_TIMEOUT'],
      request: v1.BatchVerifyRequest,
      response: v1.BatchVerifyResponse,
    },
  },
  {
    method: 'post',
    path: '/compare',
    permission: 'verify',
    body: 'json',
    handle(_ctx, req, res) {
      const body = parseWith(v1.CompareRequest, req.body);
      res.json(compareBody(compareDigests(body.hash1, body.hash2)));
    },
    doc: {
      operationId: 'compareV1',
      summary: 'Compare two hex hashes in constant time (Set B)',
      request: v1.CompareRequest,
      response: v1.CompareResponse,
    },
  },
  {
    method: 'get',
    path: '/status',
    outsideQuota: true,
    permission: 'read',
    async handle({ deps }, _req, res) {
      const { status, usage } = await statusOf(deps, principalOf(res), res.locals.sandbox === true);
      res.json(statusBody(status, usage));
    },
    doc: { operationId: 'getStatusV1', summary: 'Service status, rate limit and account (Set B)', response: v1.StatusResponse },
  },
];
