/** What every operation group of a client shares. */
import type { Authorizer } from './auth.js';
import type { Platform } from './platform.js';
import type { RetryPolicy } from './retry.js';
import type { Transport } from './transport.js';
import { randomUuid } from './ids.js';

export interface ClientContext {
  transport: Transport;
  authorizer: Authorizer;
  platform: Platform;
  retry: RetryPolicy;
  /** Default per-attempt timeout of JSON requests, in ms. */
  timeoutMs: number;
}

/** Options every call takes. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Per-attempt timeout of this call, in ms (uploads have none unless given). */
  timeoutMs?: number;
}

/**
 * The Idempotency-Key a job submission or upload carries: the caller's, else a generated one when
 * retries are on (so a retried request cannot create a second job), else none — and then the
 * request is never sent twice.
 */
export function idempotencyKeyFor(context: ClientContext, given: string | undefined): string | undefined {
  if (given !== undefined) return given;
  return context.retry.maxRetries > 0 ? randomUuid() : undefined;
}
