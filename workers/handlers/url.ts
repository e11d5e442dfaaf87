import { fetchAndHash } from '../../shared/net/fetch-and-hash.js';
import type { JobHandler } from '../../shared/queue/types.js';

/**
 * Fetch a caller-named URL and hash its body, on a worker so that fetching happens away from the
 * API nodes. Every dialled address passes the SSRF policy of shared/net.
 */
export function createUrlHandler(options: { allowLoopback: boolean }): JobHandler<'url'> {
  return async (payload) => {
    const result = await fetchAndHash(payload.url, {
      timeoutMs: payload.timeoutMs,
      maxBytes: payload.maxBytes,
      allowLoopback: options.allowLoopback,
    });
    return { digest: result.digest.toString('hex'), size: result.size, finalUrl: result.finalUrl };
  };
}
