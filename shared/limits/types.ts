/**
 * The request limiter's contract: one `consume()` per authenticated request, one
 * `usage()` per /v1/usage or Set B status call. Implementations: limiter.ts (assembled from consume.ts,
 * usage-snapshot.ts and their helpers).
 */
import type { KeyType, Plan } from '../store/types.js';
import type { V1Tier } from './plans.js';

/**
 * Which limits a request is counted against: v1 Set A (`v1a`, per second, tier table), v1 Set B
 * (`v1b`, per minute, plan table), v2 HTTP (`v2`, per second) and v2 WebSocket messages (`ws`,
 * which share the v2 per-second bucket). Every generation shares the one daily quota.
 */
export type Generation = 'v1a' | 'v1b' | 'v2' | 'ws';

export interface LimitRequest {
  accountId: string;
  plan: Plan;
  keyType: KeyType;
  generation: Generation;
  sandbox: boolean;
  /**
   * The credential the request's count is also recorded under, per day and generation (the
   * dashboard's usage by key): an API key id, `oauth:<client id>` or `jwt:<kid>` — never a
   * per-token id, so the breakdown stays bounded. Omitted: only the account total is counted.
   */
  credential?: string;
  /**
   * Reading the account's usage (/v1/usage, /v1/status): counted in its rate window only, never
   * refused by the daily quota and never counted in it, so the figure a customer reads is the one
   * that refused them (docs/limits.md "Headers and errors").
   */
  outsideQuota?: boolean;
}

/** Period the figures of a decision describe; `none` when no limit applies (limit = -1). */
export type LimitWindow = 'second' | 'minute' | 'day' | 'none';

/** `limit` and `remaining` are -1 when nothing limits the request (e.g. enterprise defaults). */
export const NO_LIMIT = -1;

export interface LimitDecision {
  allowed: boolean;
  reason?: 'rate' | 'quota';
  /**
   * The binding window: on a reject the one that refused; otherwise the one with the fewest
   * requests left after this one (ties: the shorter window, which resets first).
   */
  window: LimitWindow;
  limit: number;
  remaining: number;
  /** Unix seconds at which `window` resets. */
  resetAtUnix: number;
  /** 0 when allowed; otherwise whole seconds (≥ 1) until a retry can succeed. */
  retryAfterSeconds: number;
}

export interface WindowFigures {
  limit: number | null;
  remaining: number | null;
  resetAtUnix: number;
}

export interface UsageSnapshot {
  plan: Plan;
  /** v1 Set A `account.tier`. */
  tier: V1Tier;
  sandbox: boolean;
  dailyQuota: number | null;
  /** Requests accepted today (UTC), every generation together. */
  used: number;
  remaining: number | null;
  /** Next 00:00 UTC. */
  resetTime: Date;
  /** Rates of the key type asked about (production unless given). */
  requestsPerSecond: { v1: number | null; v2: number | null };
  requestsPerMinute: number | null;
  /** The current v1 Set B minute window, live (Set B status `rate_limit`). */
  minuteWindow: WindowFigures;
  maxFileBytes: { v1: number; v2: number };
  wsConnections: number | null;
}

export interface RequestLimiter {
  /**
   * Count one request. Rejected requests count nowhere (neither the rate window nor the day).
   * Throws ServiceError('SERVICE_UNAVAILABLE') when the counters cannot be reached.
   */
  consume(req: LimitRequest): Promise<LimitDecision>;
  /**
   * `consume`'s decision when it needs no counter operation (nothing to wait for); undefined when
   * it does, and then `consume` must be called instead. Throws as `consume` rejects.
   */
  consumeSync?(req: LimitRequest): LimitDecision | undefined;
  usage(accountId: string, plan: Plan, sandbox: boolean, keyType?: KeyType): Promise<UsageSnapshot>;
  /**
   * Write counts accepted so far to the store (usage_daily), and the batched day counts of plans
   * without a quota to the shared counters. Rejects if either refused some (kept for the next flush).
   */
  flush(): Promise<void>;
  /** Stop the flush timer and flush once more. Idempotent: returns the same promise. */
  close(): Promise<void>;
}

/** A limiter opened for a process (shared/infra.ts openLimiter), with its start and stop. */
export interface OpenedLimiter {
  limiter: RequestLimiter;
  /** Settles when the counters can answer (at once in memory); rejects when Redis stays away past its start budget. */
  ready: Promise<void>;
  close: () => Promise<void>;
}
