/**
 * A small tus 1.0 client for /v2/uploads (README "Resumable uploads (tus 1.0) at /v2/uploads"):
 * create, PATCH in chunks, HEAD to learn the server's offset after a failure, retry on 409/423/5xx
 * and network errors with the client's backoff. No dependency: the same `fetch` as every call.
 */
import type { ClientContext, RequestOptions } from '../context.js';
import { ApiError, errorFromResponse, NetworkError } from '../errors.js';
import type { RangedSource } from '../platform.js';
import { abortReason, retryDelayMs, sleep } from '../retry.js';
import type { UploadProgress } from './source.js';

const TUS = { 'Tus-Resumable': '1.0.0' };
/** Large enough that the per-request overhead is negligible, small enough that a cut costs little. */
export const RESUMABLE_CHUNK_BYTES = 8 * 1024 * 1024;
/** 409 (offset moved), 423 (another PATCH holds the upload), and the usual transient statuses. */
const RETRY_STATUSES = new Set([409, 423, 429, 500, 502, 503, 504]);

export type ResumableInput = string | Blob | Uint8Array | ArrayBuffer | RangedSource;

export interface ResumableOptions extends RequestOptions {
  /** Called after each chunk the server stored: its offset, and the size. */
  onProgress?: (progress: UploadProgress) => void;
  /** Expected SHA-224 (hex): sent as tus metadata `sha224`, verified as the bytes arrive. */
  expect?: string;
  /** An upload URL from an earlier, interrupted run: continue it from the server's offset. */
  uploadUrl?: string;
  /** Called once the upload's URL is known (kept by the caller to resume after a crash). */
  onUploadUrl?: (url: string) => void;
  /** Called when the last byte is stored and the job named: the upload URL is of no further use. */
  onUploaded?: (result: ResumableResult) => void;
  /** Bytes per PATCH; default 8 MiB. */
  chunkBytes?: number;
  filename?: string;
}

export interface ResumableResult {
  uploadUrl: string;
  /** The `file` job that holds the digest (Upload-Job-Id / Upload-Job-Url). */
  jobId: string;
  jobUrl: string;
  /** The server's offset when this run started (0 unless it resumed). */
  resumedFrom: number;
  /** Body bytes this run sent (chunks re-sent after a failure count twice). */
  bytesSent: number;
}

function ranged(input: ResumableInput, context: ClientContext, filename: string | undefined): Promise<RangedSource> {
  if (typeof input === 'string') {
    if (context.platform.openRanged === undefined) throw new TypeError('file paths need the Node build of @sha224d/client');
    return context.platform.openRanged(input);
  }
  if (input instanceof Blob) {
    const blob = input;
    return Promise.resolve({
      filename: filename ?? ('name' in blob && typeof blob.name === 'string' ? blob.name : 'upload.bin'),
      size: blob.size,
      read: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()),
    });
  }
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) {
    const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
    return Promise.resolve({
      filename: filename ?? 'upload.bin',
      size: bytes.length,
      read: (start, end) => Promise.resolve(bytes.subarray(start, end)),
    });
  }
  return Promise.resolve(input);
}

/** tus metadata: `key base64(value)` pairs. */
function metadata(pairs: Record<string, string | undefined>): string {
  const encode = (text: string): string => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
  return Object.entries(pairs)
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .map(([key, value]) => `${key} ${encode(value)}`)
    .join(',');
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // not JSON: the text is the message
  }
  return errorFromResponse(response.status, response.headers, body);
}

function jobOf(headers: Headers): { id: string; url: string } | undefined {
  const id = headers.get('upload-job-id');
  const url = headers.get('upload-job-url');
  return id === null || url === null ? undefined : { id, url };
}

/** Uploads `input` through /v2/uploads, resuming `options.uploadUrl` when given and still alive. */
export async function uploadResumable(
  context: ClientContext,
  input: ResumableInput,
  options: ResumableOptions = {},
): Promise<ResumableResult> {
  const source = await ranged(input, context, options.filename);
  const chunk = options.chunkBytes ?? RESUMABLE_CHUNK_BYTES;
  const { transport } = context;
  let retries = 0;
  /** Runs `step`, retrying transient failures with backoff; a success resets the budget. */
  const withRetry = async <T>(operation: string, step: () => Promise<T>): Promise<T> => {
    for (;;) {
      let error: Error;
      try {
        const value = await step();
        retries = 0;
        return value;
      } catch (err) {
        if (options.signal?.aborted) throw abortReason(options.signal);
        error = err instanceof Error ? err : new Error(String(err));
      }
      // Anything but an answer is the connection failing (fetch's TypeError "fetch failed", a reset): transient.
      const transient = error instanceof ApiError ? error.status !== undefined && RETRY_STATUSES.has(error.status) : true;
      const delay = transient ? retryDelayMs(context.retry, retries, error instanceof ApiError ? error.retryAfter : undefined) : undefined;
      if (delay === undefined) {
        if (error instanceof ApiError) throw error;
        throw new NetworkError({ code: 'NETWORK_ERROR', message: `${operation} failed: ${error.message}`, cause: error });
      }
      retries += 1;
      await sleep(delay, options.signal);
    }
  };
  const call = (url: string, method: string, headers: Record<string, string>, body?: Uint8Array) =>
    transport.raw(url, { method, headers: { ...TUS, ...headers }, body, signal: options.signal, generation: 'v2' });

  /**
   * The server's offset, and the job once the last byte is in (HEAD names it too, so an upload whose
   * final answer was lost still ends with its job); undefined when the upload is gone (404/410).
   */
  const stateOf = (url: string): Promise<{ offset: number; job: { id: string; url: string } | undefined } | undefined> =>
    withRetry('HEAD', async () => {
      const response = await call(url, 'HEAD', {});
      if (response.status === 404 || response.status === 410) return undefined;
      if (!response.ok) throw await failure(response);
      return { offset: Number(response.headers.get('upload-offset') ?? '0'), job: jobOf(response.headers) };
    });

  let url = options.uploadUrl;
  const previous = url === undefined ? undefined : await stateOf(url);
  let offset = previous?.offset;
  let job = previous?.job;
  if (url === undefined || offset === undefined) {
    const meta = metadata({ filename: source.filename, sha224: options.expect?.toLowerCase() });
    url = await withRetry('POST /v2/uploads', async () => {
      const response = await call('v2/uploads', 'POST', { 'Upload-Length': String(source.size), 'Upload-Metadata': meta });
      if (response.status !== 201) throw await failure(response);
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (location === null) throw new ApiError({ code: 'UNEXPECTED_RESPONSE', message: 'POST /v2/uploads answered without Location' });
      return new URL(location, transport.baseUrl).toString();
    });
    offset = 0;
  }
  options.onUploadUrl?.(url);
  const resumedFrom = offset;
  let bytesSent = 0;
  options.onProgress?.({ sent: offset, total: source.size });
  const uploadUrl = url;
  while (job === undefined) {
    const start: number = offset;
    const end = Math.min(source.size, start + chunk);
    const bytes = await source.read(start, end);
    const answer = await withRetry('PATCH', async () => {
      const response = await call(
        uploadUrl,
        'PATCH',
        { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(start) },
        bytes,
      );
      bytesSent += bytes.length;
      if (response.status === 409) {
        // The server's offset differs (a PATCH whose answer was lost): carry on from where it stands.
        const conflict = await failure(response);
        const now = await stateOf(uploadUrl);
        if (now === undefined) throw conflict;
        return now;
      }
      if (response.status !== 204) throw await failure(response);
      return { offset: Number(response.headers.get('upload-offset') ?? end), job: jobOf(response.headers) };
    });
    offset = answer.offset;
    job = answer.job;
    options.onProgress?.({ sent: offset, total: source.size });
    if (job === undefined && offset >= source.size) {
      // The last PATCH's answer was lost: the job exists but its name is gone with it.
      throw new ApiError({
        code: 'UNEXPECTED_RESPONSE',
        message: `upload ${uploadUrl} is complete but its job was not named; start again`,
      });
    }
  }
  const result = { uploadUrl, jobId: job.id, jobUrl: job.url, resumedFrom, bytesSent };
  options.onUploaded?.(result);
  return result;
}
