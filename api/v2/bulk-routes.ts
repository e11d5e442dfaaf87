/**
 * Bulk jobs on /v2 (docs/api.md "Bulk jobs"): POST /bulk from an NDJSON body, a list of URLs or
 * an S3 bucket; GET /bulk/{id} for progress; GET /bulk/{id}/results for the result lines;
 * DELETE /bulk/{id} to cancel. Declared once (api/http/route-table.ts).
 */
import type { Request, RequestHandler, Response } from 'express';
import { ServiceError } from '../../shared/errors.js';
import { sendResults } from './bulk-results.js';
import { bulkStatusBody, bulkStatusUrl } from './bulk-render.js';
import type { Route, RouteContext } from '../http/route-table.js';
import { parseWith } from '../http/validate.js';
import { assertNotClientKey } from '../middleware/client-keys.js';
import { principalOf } from '../middleware/guards.js';
import { CALLER_ERRORS, errorResponses, json, okResponse, successHeaders } from '../openapi-kit.js';
import { bulkOf, bulkRecordOf, cancelBulk, createItemsJob, createS3Job, createUrlsJob } from '../operations/bulk.js';
import * as bulk from '../schemas/bulk.js';
import { z } from '../schemas/common.js';
import { assertIdentityEncoding, takeBody } from '../uploads/request-body.js';

const NDJSON = 'application/x-ndjson';
const ACCEPT_RANGES = {
  description: '`bytes`: a Range is honoured (every finished job since part sizes are recorded)',
  schema: { type: 'string' as const },
};

/** Bulk jobs run unattended: client keys (public, in browser code) may not start them. */
const notForClientKeys: RequestHandler = function bulkNotForClientKeys(_req, res, next) {
  const principal = res.locals.principal;
  if (principal) assertNotClientKey(principal, 'start bulk jobs');
  next();
};

/** The node's JSON body parser, run only for a JSON body (an NDJSON one is streamed instead). */
function readJson(ctx: RouteContext, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    void ctx.json(req, res, (err?: unknown) =>
      err === undefined ? resolve() : reject(err instanceof Error ? err : new Error('bad body')),
    );
  });
}

async function createBulk(ctx: RouteContext, req: Request, res: Response): Promise<void> {
  const { deps } = ctx;
  const principal = principalOf(res);
  let record;
  if (req.is(NDJSON) === NDJSON) {
    assertIdentityEncoding(req);
    const body = takeBody(req, res, { drainMaxBytes: deps.config.UPLOAD_DRAIN_MAX_BYTES });
    try {
      record = await createItemsJob(deps, principal, body.stream);
    } catch (err) {
      // A refusal mid-body is still answered: the rest is read into the void, up to the bound (api/uploads/request-body.ts).
      body.discardRest();
      throw err;
    }
  } else if (req.is('application/json') === 'application/json') {
    await readJson(ctx, req, res);
    const body = parseWith(bulk.BulkJsonRequest, req.body);
    record = body.source === 'urls' ? await createUrlsJob(deps, principal, body) : await createS3Job(deps, principal, body);
  } else throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', { details: `send ${NDJSON} (items) or application/json (urls, s3)` });
  res.setHeader('Location', bulkStatusUrl(record.id));
  res.status(202).json(bulkStatusBody(record));
}

const idParam = (req: Request): string => String(req.params.id);

export const BULK_ROUTES: readonly Route[] = [
  {
    method: 'post',
    path: '/bulk',
    permission: 'hash',
    before: [notForClientKeys],
    handle: createBulk,
    doc: {
      operationId: 'createBulkV2',
      summary: 'Start a bulk job: NDJSON items, a list of URLs or an S3 bucket; answers 202',
      description:
        'Items: an application/x-ndjson body, one `{"id","data","encoding"}` per line. URLs and S3: a JSON body. Limits per plan: docs/api.md "Bulk jobs".',
      custom: (gen) => ({
        request: {
          body: {
            required: true,
            content: {
              [NDJSON]: {
                schema: z.string().openapi({
                  type: 'string',
                  description: 'One JSON item per line: {"id": string, "data": string, "encoding"?: "utf8"|"hex"|"base64"}',
                }),
              },
              'application/json': { schema: bulk.BulkJsonRequest },
            },
          },
        },
        responses: {
          202: {
            description: 'Accepted: the items are stored and their chunks queued',
            headers: { ...successHeaders(gen), Location: gen.headers.location },
            ...json(bulk.BulkStatus),
          },
          ...errorResponses(gen, [...CALLER_ERRORS, 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'URL_NOT_ALLOWED', 'NOT_FOUND']),
        },
      }),
    },
  },
  {
    method: 'get',
    path: '/bulk/:id',
    permission: 'jobs',
    async handle({ deps }, req, res) {
      res.json(bulkStatusBody(await bulkRecordOf(deps, principalOf(res), idParam(req))));
    },
    doc: {
      operationId: 'getBulkV2',
      summary: "A bulk job's progress (items done, failed, rate, ETA) and, once finished, its summary",
      custom: (gen) => ({
        request: { params: bulk.BulkParams },
        responses: { ...okResponse(gen, bulk.BulkStatus), ...errorResponses(gen, [...CALLER_ERRORS, 'NOT_FOUND']) },
      }),
    },
  },
  {
    method: 'delete',
    path: '/bulk/:id',
    permission: 'hash',
    async handle({ deps }, req, res) {
      res.json(bulkStatusBody(await cancelBulk(deps, principalOf(res), idParam(req))));
    },
    doc: {
      operationId: 'cancelBulkV2',
      summary: 'Cancel a bulk job: chunks not yet run are skipped; a finished job is left as it is',
      custom: (gen) => ({
        request: { params: bulk.BulkParams },
        responses: { ...okResponse(gen, bulk.BulkStatus), ...errorResponses(gen, [...CALLER_ERRORS, 'NOT_FOUND']) },
      }),
    },
  },
  {
    method: 'get',
    path: '/bulk/:id/results',
    permission: 'jobs',
    async handle({ deps }, req, res) {
      const record = await bulkRecordOf(deps, principalOf(res), idParam(req));
      await sendResults(deps.blobs, bulkOf(deps).store, record, req, res);
    },
    doc: {
      operationId: 'getBulkResultsV2',
      summary: "A finished bulk job's results: NDJSON in input order, `{id, hash, bytes}` or `{id, error}` per item (gzip if accepted)",
      description:
        'A single `Range: bytes=…` is answered 206 from the identity (uncompressed) bytes, never gzip, whatever Accept-Encoding says; several ranges, another unit or an `If-Range` get the whole 200. docs/api.md "Bulk jobs".',
      custom: (gen) => ({
        request: {
          params: bulk.BulkParams,
          headers: z.object({
            Range: z.string().optional().openapi({
              description: 'One byte range of the identity results (RFC 9110 §14.2): `bytes=0-999`, `bytes=1000-`, `bytes=-500`',
            }),
          }),
        },
        responses: {
          200: {
            description: 'One JSON line per item, in input order',
            headers: { ...successHeaders(gen), 'Accept-Ranges': ACCEPT_RANGES },
            content: { [NDJSON]: { schema: z.string().openapi({ type: 'string' }) } },
          },
          206: {
            description: 'The requested bytes of the identity results (never gzip)',
            headers: {
              ...successHeaders(gen),
              'Accept-Ranges': ACCEPT_RANGES,
              'Content-Range': gen.headers.contentRange,
              'Content-Length': { description: 'Bytes in this part', required: true, schema: { type: 'integer' } },
            },
            content: { [NDJSON]: { schema: z.string().openapi({ type: 'string' }) } },
          },
          ...errorResponses(gen, [...CALLER_ERRORS, 'NOT_FOUND', 'CONFLICT', 'RANGE_NOT_SATISFIABLE']),
        },
      }),
    },
  },
];
