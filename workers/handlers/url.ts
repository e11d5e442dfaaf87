import type { JobHandler } from '../../shared/queue/types.js';

/**
 * Fetch a caller-named URL and hash its body, on a worker so that fetching happens away from the
 * API nodes. Every dialled address passes the SSRF policy of shared/net. The fetcher and its HTTP
 * client (undici, a hundred modules) load with the first URL job, not at start: most processes
 * never run one.
 */
export function createUrlHandler(options: { allowLoopback: boolean }): JobHandler<'url'> {
  return async (payload) => {
    const { fetchAndHash } = await import('../../shared/net/fetch-and-hash.js');
    const result = await fetchAndHash(payload.url, {
      timeoutMs: payload.timeoutMs,
      maxBytes: payload.maxBytes,
      allowLoopback: options.allowLoopback,
    });
    return { digest: result.digest.toString('hex'), size: result.size, finalUrl: result.finalUrl };
  };
}
