/**
 * The /v2 routes of proof of existence (docs/proving.md): log a digest, read a receipt, a consistency
 * proof between two checkpoints, and RFC 3161 time-stamps. Declared like every /v2 route
 * (api/http/route-table.ts), so they are authenticated, counted and documented alike.
 */
import type { Request } from 'express';
import { ServiceError } from '../../shared/errors.js';
import type { Route } from '../http/route-table.js';
import { sendJson } from '../http/send-json.js';
import { parseWith } from '../http/validate.js';
import { principalOf } from '../middleware/guards.js';
import { CALLER_ERRORS, errorResponses, okResponse } from '../openapi-kit.js';
import { receiptBody, sendWithReceipt } from '../http/receipt-body.js';
import { consistencyBetween, logDigest, receiptOf, timestamp } from '../operations/proof.js';
import { z } from '../schemas/common.js';
import * as proof from '../schemas/proof.js';

/** A TimeStampReq is a few hundred bytes; anything much larger is not one. */
export const TIMESTAMP_QUERY_MAX_BYTES = 16 * 1024;
export const TIMESTAMP_QUERY_TYPE = 'application/timestamp-query';
export const TIMESTAMP_REPLY_TYPE = 'application/timestamp-reply';

/** Reads a small binary body whole; a larger one is drained and refused. */
async function smallBody(req: Request, maxBytes: number): Promise<Buffer> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== TIMESTAMP_QUERY_TYPE) {
    req.resume();
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', { details: `Send the DER TimeStampReq as ${TIMESTAMP_QUERY_TYPE}` });
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes <= maxBytes) chunks.push(chunk);
  }
  if (bytes > maxBytes) throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `A TimeStampReq is at most ${maxBytes} bytes` });
  return Buffer.concat(chunks);
}

export const PROOF_ROUTES: readonly Route[] = [
  {
    method: 'post',
    path: '/log',
    permission: 'hash',
    body: 'json',
    async handle({ deps }, req, res) {
      const body = parseWith(proof.LogDigestRequest, req.body);
      const logged = await logDigest(deps, principalOf(res), { digest: body.digest, length: body.length ?? 0, source: 'digest' });
      sendWithReceipt(res, { success: true }, logged);
    },
    doc: {
      operationId: 'logDigestV2',
      summary: 'Log a SHA-224 digest computed elsewhere in the transparency log; answers its receipt',
      description: 'The data never reaches the service. The receipt verifies offline (docs/proving.md).',
      request: proof.LogDigestRequest,
      response: proof.ReceiptResponse,
    },
  },
  {
    method: 'get',
    path: '/receipts/:id',
    permission: 'read',
    async handle({ deps }, req, res) {
      const { id } = parseWith(proof.ReceiptParams, req.params);
      sendJson(res, { success: true, receipt: receiptBody(await receiptOf(deps, principalOf(res), id)) });
    },
    doc: {
      operationId: 'getReceiptV2',
      summary: "A logged digest's receipt, against the latest checkpoint",
      description: "Another account's receipt is reported as absent (404).",
      custom: (gen) => ({
        request: { params: proof.ReceiptParams },
        responses: { ...okResponse(gen, proof.ReceiptResponse), ...errorResponses(gen, [...CALLER_ERRORS, 'NOT_FOUND']) },
      }),
    },
  },
  {
    method: 'get',
    path: '/log/consistency',
    permission: 'read',
    async handle({ deps }, req, res) {
      const query = parseWith(proof.ConsistencyQuery, req.query);
      const c = await consistencyBetween(deps, query.from, query.to);
      sendJson(res, {
        success: true,
        from: c.from,
        to: c.to,
        proof: c.proof.map((h) => h.toString('base64')),
        from_checkpoint: c.fromCheckpoint,
        to_checkpoint: c.toCheckpoint,
      });
    },
    doc: {
      operationId: 'logConsistencyV2',
      summary: 'RFC 9162 consistency proof between two tree sizes of the log, with their checkpoints',
      custom: (gen) => ({
        request: { query: proof.ConsistencyQuery },
        responses: { ...okResponse(gen, proof.ConsistencyResponse), ...errorResponses(gen, CALLER_ERRORS) },
      }),
    },
  },
  {
    method: 'post',
    path: '/timestamp',
    permission: 'hash',
    async handle({ deps }, req, res) {
      const query = await smallBody(req, TIMESTAMP_QUERY_MAX_BYTES);
      const stamped = await timestamp(deps, query);
      // RFC 3161 §3.4: a rejection is a TimeStampResp too, sent with 200.
      res.setHeader('Content-Type', TIMESTAMP_REPLY_TYPE);
      res.setHeader('Content-Length', stamped.response.length);
      res.end(stamped.response);
    },
    doc: {
      operationId: 'timestampV2',
      summary: 'RFC 3161 time-stamp: a DER TimeStampReq (SHA-224 or SHA-256 imprint) in, a TimeStampResp out',
      description:
        'A request the authority refuses (unknown algorithm, wrong imprint length, another policy) is answered 200 with a rejection TimeStampResp, as RFC 3161 §3.4 has it.',
      custom: (gen) => ({
        request: {
          body: {
            required: true,
            content: { [TIMESTAMP_QUERY_TYPE]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) } },
          },
        },
        responses: {
          200: {
            description: 'A DER TimeStampResp',
            content: { [TIMESTAMP_REPLY_TYPE]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) } },
          },
          ...errorResponses(gen, [...CALLER_ERRORS, 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
        },
      }),
    },
  },
];
