/**
 * Serving the registry: one function for the API node's `/metrics` route and the worker's
 * metrics listener, so both apply the same bearer guard (docs/operating.md "Where they are
 * served").
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metrics } from './catalogue.js';

/**
 * Whether an Authorization header carries exactly `Bearer <token>`. Both sides are hashed first so
 * the comparison is constant-time whatever their lengths (timingSafeEqual needs equal lengths,
 * and comparing lengths first would leak the token's).
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  if (authorization === undefined) return false;
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization);
  const offered = match?.[1] ?? '';
  const a = createHash('sha256').update(offered).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b) && match !== null;
}

export type MetricsAccess = 'allowed' | 'unauthorized' | 'not_found';

/** No token configured → the route does not exist (not public by default); else the bearer must match. */
export function metricsAccess(authorization: string | undefined, token: string | undefined, requireToken: boolean): MetricsAccess {
  if (token === undefined) return requireToken ? 'not_found' : 'allowed';
  return bearerMatches(authorization, token) ? 'allowed' : 'unauthorized';
}

/**
 * Run the scrape-time collectors (each bounded by its own cache; one that fails leaves its
 * gauges as they were), then render the text exposition format.
 */
export async function renderMetrics(metrics: Metrics): Promise<{ contentType: string; body: string }> {
  await Promise.allSettled([...metrics.collectors].map(async (collect) => collect()));
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}
