/**
 * Backpressure for the BullMQ producer (QUEUE_MAX_WAITING): a queue that already holds `maxWaiting`
 * jobs no worker has taken refuses new ones with 503 SERVICE_UNAVAILABLE and Retry-After, instead
 * of growing in Redis while workers are absent or too few.
 *
 * The count is read at most once per `ttlMs` per queue and node (one count script) and shared by
 * every submit meanwhile: a submit costs no extra round trip unless the count has gone stale. So
 * each API node may admit up to `ttlMs` worth of its submissions past the bound — it bounds Redis
 * memory, it is not a quota. Counting this node's own additions on top until the next read would
 * prevent that, but it would also cap a node at `maxWaiting` jobs per `ttlMs` while workers take
 * every job at once.
 */
import { queueFull } from './execute.js';

/** Default QUEUE_MAX_WAITING (docs/decisions.md "Jobs and modes"). */
export const DEFAULT_MAX_WAITING = 10_000;

export const WAITING_COUNT_TTL_MS = 250;

/** A count read shared by concurrent admits for at most this long. */
const STALE_READ_MS = 2000;

export interface WaitingBoundOptions<Q extends string> {
  /** 0: unbounded. */
  maxWaiting: number;
  /** The queue's jobs not yet taken by a worker, read from Redis. */
  count: (queue: Q) => Promise<number>;
  ttlMs?: number;
  now?: () => number;
}

interface Reading {
  readonly count: number;
  readonly readAt: number;
}

export class WaitingBound<Q extends string> {
  private readonly readings = new Map<Q, Reading>();
  private readonly inFlight = new Map<Q, Promise<Reading>>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: WaitingBoundOptions<Q>) {
    if (!Number.isInteger(options.maxWaiting) || options.maxWaiting < 0) throw new RangeError('maxWaiting must be a non-negative integer');
    this.ttlMs = options.ttlMs ?? WAITING_COUNT_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** Resolves if `queue` may take one more job; rejects with 503 SERVICE_UNAVAILABLE if it is full. */
  async admit(queue: Q): Promise<void> {
    if (this.options.maxWaiting === 0) return;
    const reading = await this.current(queue);
    if (reading.count >= this.options.maxWaiting) throw queueFull(queue);
  }

  private current(queue: Q): Promise<Reading> {
    const reading = this.readings.get(queue);
    if (reading !== undefined && this.now() - reading.readAt < this.ttlMs) return Promise.resolve(reading);
    let pending = this.inFlight.get(queue);
    if (pending === undefined) {
      const readAt = this.now();
      // A read that has not settled by then (its connection lost mid-command in a failover) is no
      // longer shared: later callers read afresh instead of waiting on it.
      const stale = setTimeout(() => {
        if (this.inFlight.get(queue) === pending) this.inFlight.delete(queue);
      }, STALE_READ_MS);
      stale.unref();
      const read: Promise<Reading> = this.options
        .count(queue)
        .then((count) => {
          const fresh = { count, readAt };
          this.readings.set(queue, fresh);
          return fresh;
        })
        .finally(() => {
          clearTimeout(stale);
          if (this.inFlight.get(queue) === read) this.inFlight.delete(queue);
        });
      pending = read;
      this.inFlight.set(queue, pending);
    }
    return pending;
  }
}
