/**
 * /v2/uploads: resumable uploads over tus 1.0 (core, creation, creation-with-upload,
 * creation-defer-length, termination, expiration, checksum; docs/decisions.md "Resumable
 * uploads"). Authentication, permission and limits as /v2/file: a created upload counts once
 * against the daily quota, its HEAD, PATCH and DELETE in the rate window only. The protocol's
 * answer-wide rules (Tus-Resumable, OPTIONS, 412) are api/middleware/tus-protocol.ts.
 */
import type { Request, Response } from 'express';
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { ServiceError } from '../../shared/errors.js';
import type { ResumableRecord } from '../../shared/uploads/record.js';
import type { ApiDeps } from '../deps.js';
import type { Route } from '../http/route-table.js';
import { parseWith } from '../http/validate.js';
import { principalOf } from '../middleware/guards.js';
import { CALLER_ERRORS, errorResponses, successHeaders, type Generation } from '../openapi-kit.js';
import { appendToUpload, createUpload, resumableMaxBytes, terminateUpload, uploadOf, type Append } from '../operations/resumable.js';
import { z } from '../schemas/common.js';
import { CreateUploadHeaders, PatchUploadHeaders, TUS_CONTENT_TYPE, UploadIdParams } from '../schemas/uploads.js';
import { receiveSegment, type SegmentChecksum } from '../uploads/tus-segment.js';
import { assertIdentityEncoding } from '../uploads/request-body.js';

const TUS_ERRORS = ['TUS_VERSION_UNSUPPORTED', 'NOT_FOUND', 'UPLOAD_EXPIRED'] as const;
const WRITE_ERRORS = [
  ...TUS_ERRORS,
  'FILE_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UPLOAD_OFFSET_MISMATCH',
  'UPLOAD_LOCKED',
  'CHECKSUM_MISMATCH',
] as const;

function contentTypeOf(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

function hasBody(req: Request): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')
  );
}

/** An HTTP date, as tus's expiration extension writes Upload-Expires (RFC 9110 IMF-fixdate). */
const httpDate = (ms: number): string => new Date(ms).toUTCString();

/** What every answer about an upload says of it. */
function describe(res: Response, record: ResumableRecord): void {
  res.setHeader('Upload-Offset', String(record.offset));
  if (record.jobId !== undefined) {
    res.setHeader('Upload-Job-Id', record.jobId);
    res.setHeader('Upload-Job-Url', `/v2/jobs/${record.jobId}`);
  } else {
    res.setHeader('Upload-Expires', httpDate(record.expiresAt));
  }
}

/** One PATCH body (or a creation-with-upload body) into the upload, under its lock. */
function append(
  deps: ApiDeps,
  req: Request,
  res: Response,
  id: string,
  patch: Append & { checksum?: SegmentChecksum | undefined },
): Promise<ResumableRecord> {
  return appendToUpload(deps, principalOf(res), id, patch, (blobs, key, maxBytes, hash) =>
    receiveSegment(req, res, {
      blobs,
      key,
      maxBytes,
      hash,
      ...(patch.checksum === undefined ? {} : { checksum: patch.checksum }),
    }),
  );
}

/** A body must be tus's content type; refused before any of it is read. */
function assertTusBody(req: Request): void {
  if (contentTypeOf(req) !== TUS_CONTENT_TYPE) {
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', {
      message: `Content-Type must be ${TUS_CONTENT_TYPE}`,
      details: 'header: content-type',
    });
  }
  assertIdentityEncoding(req);
}

const tusResumable = z.literal('1.0.0').openapi({ description: 'The tus protocol version: 1.0.0 (else 412)' });
const idParams = UploadIdParams;

function noContent(gen: Generation, description: string, headers: Record<string, string>): Record<number, ResponseConfig> {
  return { 204: { description, headers: headerDocs(gen, headers) } };
}

/** The tus headers of a success answer, beside the request id and rate window every answer carries. */
function headerDocs(gen: Generation, headers: Record<string, string>): ResponseConfig['headers'] {
  return {
    ...successHeaders(gen),
    ...Object.fromEntries(Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])),
  };
}

const ALWAYS = { 'Tus-Resumable': '1.0.0' };
const STATE = {
  ...ALWAYS,
  'Upload-Offset': 'Bytes received and hashed (kept in the blob store where upload records outlive the node): resume from here',
  'Upload-Expires': 'When an unfinished upload and its bytes are deleted (HTTP date)',
  'Upload-Job-Id': 'Once the last byte is in: the `file` job that carries the digest (GET /v2/jobs/{id})',
  'Upload-Job-Url': 'Once the last byte is in: `/v2/jobs/{id}`',
};

export const UPLOAD_ROUTES: readonly Route[] = [
  {
    method: 'post',
    path: '/uploads',
    permission: 'hash',
    async handle({ deps }, req, res) {
      const principal = principalOf(res);
      const headers = parseWith(CreateUploadHeaders, req.headers);
      const withUpload = hasBody(req);
      if (withUpload) assertTusBody(req);
      res.setHeader('Tus-Max-Size', String(resumableMaxBytes(deps, principal)));
      let record = await createUpload(deps, principal, {
        length: headers.length,
        rawMetadata: headers.metadata.raw,
        filename: headers.metadata.filename,
        expectedSha224: headers.metadata.sha224,
      });
      if (withUpload) record = await append(deps, req, res, record.id, { offset: 0, length: undefined });
      res.setHeader('Location', `/v2/uploads/${record.id}`);
      describe(res, record);
      res.status(201).end();
    },
    doc: {
      operationId: 'createUploadV2',
      summary: 'Create a resumable upload (tus 1.0 creation; with a body: creation-with-upload)',
      description:
        "Answers 201 with `Location: /v2/uploads/{id}`. Send Upload-Length, or Upload-Defer-Length: 1 and Upload-Length with a later PATCH; at most the plan's /v2/stream limit (Tus-Max-Size). Counts once against the daily quota.",
      custom: (gen: Generation) => ({
        request: {
          headers: z.object({
            'Tus-Resumable': tusResumable,
            'Upload-Length': z.string().optional().openapi({ description: 'The upload size in bytes' }),
            'Upload-Defer-Length': z.string().optional().openapi({ description: '`1`: the size is sent later' }),
            'Upload-Metadata': z.string().optional().openapi({ description: '`filename` and `sha224` are read; values base64' }),
          }),
          body: { required: false, content: { [TUS_CONTENT_TYPE]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) } } },
        },
        responses: {
          201: {
            description: 'Created',
            headers: headerDocs(gen, { ...STATE, Location: '`/v2/uploads/{id}`', 'Tus-Max-Size': "The caller's largest upload in bytes" }),
          },
          ...errorResponses(gen, [...CALLER_ERRORS, ...WRITE_ERRORS]),
        },
      }),
    },
  },
  {
    method: 'head',
    path: '/uploads/:id',
    permission: 'hash',
    outsideQuota: true,
    async handle({ deps }, req, res) {
      const principal = principalOf(res);
      const record = await uploadOf(deps, principal, String(req.params.id));
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Tus-Max-Size', String(record.maxBytes));
      if (record.length === null) res.setHeader('Upload-Defer-Length', '1');
      else res.setHeader('Upload-Length', String(record.length));
      if (record.rawMetadata !== undefined) res.setHeader('Upload-Metadata', record.rawMetadata);
      describe(res, record);
      res.status(200).end();
    },
    doc: {
      operationId: 'headUploadV2',
      summary: "An upload's offset (tus 1.0 core HEAD)",
      custom: (gen: Generation) => ({
        request: { params: idParams, headers: z.object({ 'Tus-Resumable': tusResumable }) },
        responses: {
          200: {
            description: 'The upload, in headers only',
            headers: headerDocs(gen, { ...STATE, 'Upload-Length': 'The size, unless deferred', 'Upload-Metadata': 'As sent' }),
          },
          ...errorResponses(gen, [...CALLER_ERRORS, ...TUS_ERRORS]),
        },
      }),
    },
  },
  {
    method: 'patch',
    path: '/uploads/:id',
    permission: 'hash',
    outsideQuota: true,
    async handle({ deps }, req, res) {
      assertTusBody(req);
      const patch = parseWith(PatchUploadHeaders, req.headers);
      const record = await append(deps, req, res, String(req.params.id), patch);
      describe(res, record);
      res.status(204).end();
    },
    doc: {
      operationId: 'patchUploadV2',
      summary: 'Append bytes at Upload-Offset (tus 1.0 core PATCH, checksum extension)',
      description:
        'The offset advances only by bytes stored and hashed. Another PATCH of the same upload under way: 423. A wrong Upload-Offset: 409. Upload-Checksum mismatch: 460, the bytes discarded. The last byte submits a `file` job carrying the digest (Upload-Job-Id).',
      custom: (gen: Generation) => ({
        request: {
          params: idParams,
          headers: z.object({
            'Tus-Resumable': tusResumable,
            'Upload-Offset': z.string().openapi({ description: 'Where these bytes start' }),
            'Upload-Checksum': z.string().optional().openapi({ description: '`sha1|sha224|sha256 <base64 digest>` of this body' }),
            'Upload-Length': z.string().optional().openapi({ description: 'For a deferred-length upload, once known' }),
          }),
          body: { required: true, content: { [TUS_CONTENT_TYPE]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) } } },
        },
        responses: { ...noContent(gen, 'Stored', STATE), ...errorResponses(gen, [...CALLER_ERRORS, ...WRITE_ERRORS]) },
      }),
    },
  },
  {
    method: 'delete',
    path: '/uploads/:id',
    permission: 'hash',
    outsideQuota: true,
    async handle({ deps }, req, res) {
      await terminateUpload(deps, principalOf(res), String(req.params.id));
      res.status(204).end();
    },
    doc: {
      operationId: 'deleteUploadV2',
      summary: 'Terminate an upload: its bytes are deleted at once (tus 1.0 termination)',
      custom: (gen: Generation) => ({
        request: { params: idParams, headers: z.object({ 'Tus-Resumable': tusResumable }) },
        responses: { ...noContent(gen, 'Terminated', ALWAYS), ...errorResponses(gen, [...CALLER_ERRORS, ...TUS_ERRORS, 'UPLOAD_LOCKED']) },
      }),
    },
  },
];
