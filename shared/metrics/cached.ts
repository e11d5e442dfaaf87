/**
 * Scrape-time reads of shared state (BullMQ counts, dependency pings) go through this: at most one
 * refresh per `ttlMs`, and concurrent scrapes share the refresh in flight, so the cost on Redis is
 * bounded by the TTL, not by the number of scrapers (docs/decisions.md "Operating").
 */
export const SCRAPE_CACHE_TTL_MS = 2000;

export function cachedRefresh(
  refresh: () => Promise<void>,
  ttlMs = SCRAPE_CACHE_TTL_MS,
  now: () => number = Date.now,
): () => Promise<void> {
  let last = -Infinity;
  let inFlight: Promise<void> | undefined;
  return () => {
    if (inFlight) return inFlight;
    if (now() - last < ttlMs) return Promise.resolve();
    inFlight = refresh().finally(() => {
      last = now();
      inFlight = undefined;
    });
    return inFlight;
  };
}
