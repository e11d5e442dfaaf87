/**
 * The URLs of a bulk job's chunk: each fetched and hashed under the SSRF policy of URL jobs
 * (shared/net, docs/ssrf.md), a bounded number at once and per host; a URL that fails is its
 * item's error.
 */
import type { ChunkInputLine, ChunkTask, ResultLine } from '../../shared/bulk/model.js';
import { URL_CHUNK_CONCURRENCY, URL_PER_HOST_CONCURRENCY } from '../../shared/bulk/model.js';
import { toJobError } from '../../shared/queue/execute.js';
import { mapBounded } from './limit.js';

export async function hashUrls(
  lines: readonly ChunkInputLine[],
  task: ChunkTask,
  allowLoopback: boolean,
  signal?: AbortSignal,
): Promise<ResultLine[]> {
  const { fetchAndHash } = await import('../../shared/net/fetch-and-hash.js');
  const settings = task.url ?? { timeoutMs: 10_000, maxBytes: 0 };
  return mapBounded(
    lines,
    { total: URL_CHUNK_CONCURRENCY, perGroup: URL_PER_HOST_CONCURRENCY, group: (line) => hostOf(line.id) },
    async (line): Promise<ResultLine> => {
      // A cancelled job (the signal) starts no more fetches, and those in flight are aborted.
      if (signal?.aborted === true) return { id: line.id, error: { code: 'SERVICE_UNAVAILABLE', message: 'bulk job cancelled' } };
      try {
        const result = await fetchAndHash(line.id, { timeoutMs: settings.timeoutMs, maxBytes: settings.maxBytes, allowLoopback, signal });
        return { id: line.id, hash: result.digest.toString('hex'), bytes: result.size };
      } catch (err) {
        return { id: line.id, error: toJobError(err) };
      }
    },
  );
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url;
}
