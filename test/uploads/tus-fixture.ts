/**
 * What the tus-js-client suites share: one upload attempt by the real client (tus-js-client
 * 4.3.1, unmodified), the same upload URL on another node, HEAD, and waiting for the finished
 * upload's job.
 */
import * as tus from 'tus-js-client';
import { getJson } from '../helpers/api-server.js';
import type { CuttingProxy } from '../helpers/cutting-proxy.js';
import { waitFor } from '../helpers/wait.js';

export const MiB = 1024 * 1024;
export const RETRIES = [50, 100, 200, 400, 800, 1600, 3200, 5000];

export interface Attempt {
  endpoint: string;
  uploadUrl?: string | undefined;
  key: string;
  /** PATCH body size (tus-js-client's chunkSize); the whole rest of the file when absent. */
  chunkSize?: number;
  /** Cut the attempt's next PATCH after this many body bytes, through this node's cutting proxy. */
  cut?: { proxy: CuttingProxy; bodyBytes: number };
  /**
   * The attempt is expected to fail (a cut, a killed node): the client's first network error ends
   * it, as a client whose network dropped (a 423 or 409 is still retried). Default: when `cut` is given.
   */
  interrupted?: boolean;
  /** Called with the upload URL as soon as the client has it. */
  onUrl?: (url: string) => void;
}

/** One tus upload attempt: resolves with its URL and whether it ended in an error. */
export function attempt(data: Buffer, options: Attempt): Promise<{ url: string; aborted: boolean }> {
  const interrupted = options.interrupted ?? options.cut !== undefined;
  return new Promise((resolve, reject) => {
    options.cut?.proxy.cutNextPatchAfter(options.cut.bodyBytes);
    const upload: tus.Upload = new tus.Upload(data, {
      endpoint: options.endpoint,
      ...(options.uploadUrl === undefined ? {} : { uploadUrl: options.uploadUrl }),
      ...(options.chunkSize === undefined ? {} : { chunkSize: options.chunkSize }),
      uploadSize: data.length,
      headers: { 'X-API-Key': options.key },
      metadata: { filename: 'big.iso' },
      retryDelays: RETRIES,
      // An interrupted attempt ends at its first network error, as a client whose network dropped.
      // A 423 or 409 is the server saying "again" (the previous node's lock not yet released just
      // after its offset was committed: docs/decisions.md "Resumable uploads"), not the interruption
      // the attempt stands for, so it is retried like any tus client does; without that, the cut
      // would never happen and the proxy would stay armed.
      ...(interrupted ? { onShouldRetry: (err: tus.DetailedError) => [409, 423].includes(err.originalResponse?.getStatus() ?? 0) } : {}),
      onUploadUrlAvailable: () => options.onUrl?.(upload.url!),
      onSuccess: () => resolve({ url: upload.url!, aborted: false }),
      onError: (err) => (interrupted && upload.url ? resolve({ url: upload.url, aborted: true }) : reject(err)),
    });
    upload.start();
  });
}

/** The same upload URL on another node: any node serves any request of an upload. */
export const onNode = (url: string, base: string): string => base + new URL(url).pathname;

export async function head(url: string, key: string): Promise<Response> {
  return fetch(url, { method: 'HEAD', headers: { 'X-API-Key': key, 'Tus-Resumable': '1.0.0' } });
}

export async function finishedJob(base: string, key: string, jobUrl: string): Promise<any> {
  return waitFor(
    async () => {
      const { body } = await getJson(`${base}${jobUrl}`, { 'x-api-key': key });
      return body.status === 'completed' || body.status === 'failed' ? body : undefined;
    },
    { timeoutMs: 30_000, what: 'the upload job to finish' },
  );
}
