/**
 * Uploads to /v2/file (multipart) or /v2/stream (raw, chunked), chosen by size: docs/api.md
 * "Other limits" sends files over 100 MB to /v2/stream, and a stream of unknown size goes there too.
 */
import { idempotencyKeyFor, type ClientContext, type RequestOptions } from '../context.js';
import type { AcceptedResponse, FileFields, FileResponse, StreamQuery, StreamResponse } from '../types.js';
import type { BodySource } from '../transport.js';
import { multipartBody, rawBody } from './multipart.js';
import { toUploadSource, type SourceOptions, type UploadInput, type UploadProgress, type UploadSource } from './source.js';

/** docs/api.md "Other limits": /v2/file takes files up to 100 MB; larger ones use /v2/stream. */
export const FILE_ENDPOINT_MAX_BYTES = 100 * 1024 * 1024;

export interface UploadOptions extends RequestOptions, SourceOptions {
  /** Called as bytes are handed to the connection: bytes sent so far, and the total when known. */
  onProgress?: (progress: UploadProgress) => void;
  /** Sent as Idempotency-Key; generated when retries are on and none is given. */
  idempotencyKey?: string;
  chunk_size?: number;
  output?: FileFields['output'];
  /** Expected SHA-224 (hex), sent as X-Expected-SHA224: the service answers 422 HASH_MISMATCH when the bytes differ. */
  expect?: string;
}

export interface AutoUploadOptions extends UploadOptions {
  /** `auto` (default): /v2/file up to `fileMaxBytes` when the size is known, else /v2/stream. */
  endpoint?: 'auto' | 'file' | 'stream';
  /** Largest size sent to /v2/file by `auto`; default 100 MiB (docs/api.md "Other limits"). */
  fileMaxBytes?: number;
}

export type UploadEndpoint = 'file' | 'stream';

async function send(context: ClientContext, endpoint: UploadEndpoint, source: UploadSource, options: UploadOptions, asJob: boolean) {
  const body: BodySource =
    endpoint === 'file'
      ? multipartBody(source, { chunk_size: options.chunk_size, output: options.output }, options.onProgress)
      : rawBody(source, options.onProgress);
  const query: StreamQuery & { async?: boolean } = endpoint === 'stream' ? { chunk_size: options.chunk_size, output: options.output } : {};
  if (asJob) query.async = true;
  const key = idempotencyKeyFor(context, options.idempotencyKey);
  const reply = await context.transport.request({
    operation: `v2.${endpoint}`,
    method: 'POST',
    path: `/v2/${endpoint}`,
    generation: 'v2',
    query,
    body,
    headers: {
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
      ...(options.expect === undefined ? {} : { 'X-Expected-SHA224': options.expect.toLowerCase() }),
    },
    retryable: key !== undefined,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  return reply.body;
}

export async function uploadFile(context: ClientContext, input: UploadInput, options: UploadOptions = {}): Promise<FileResponse> {
  return (await send(context, 'file', await toUploadSource(input, options, context.platform), options, false)) as FileResponse;
}

export async function uploadStream(context: ClientContext, input: UploadInput, options: UploadOptions = {}): Promise<StreamResponse> {
  return (await send(context, 'stream', await toUploadSource(input, options, context.platform), options, false)) as StreamResponse;
}

/** The endpoint `auto` picks for a source of this size. */
export function chooseEndpoint(size: number | undefined, options: AutoUploadOptions): UploadEndpoint {
  if (options.endpoint !== undefined && options.endpoint !== 'auto') return options.endpoint;
  return size !== undefined && size <= (options.fileMaxBytes ?? FILE_ENDPOINT_MAX_BYTES) ? 'file' : 'stream';
}

/** /v2/file or /v2/stream by size; the answer of either. */
export async function upload(
  context: ClientContext,
  input: UploadInput,
  options: AutoUploadOptions = {},
): Promise<FileResponse | StreamResponse> {
  const source = await toUploadSource(input, options, context.platform);
  const endpoint = chooseEndpoint(source.size, options);
  return (await send(context, endpoint, source, options, false)) as FileResponse | StreamResponse;
}

/** The same, as an async job (`?async=true`): 202 with the job's id. */
export async function submitUpload(context: ClientContext, input: UploadInput, options: AutoUploadOptions = {}): Promise<AcceptedResponse> {
  const source = await toUploadSource(input, options, context.platform);
  return (await send(context, chooseEndpoint(source.size, options), source, options, true)) as AcceptedResponse;
}
