/**
 * How long the limiter may wait on its counters, and what a failure to reach them becomes.
 *
 * Any failure to reach the counters is a 503 SERVICE_UNAVAILABLE: never hang, never let the request
 * through (docs/limits.md "Headers and errors"). One deadline covers all the counter operations of
 * one limiter call (a request's rate hit and quota take together), and in-memory counters get none:
 * a timer and a promise race per operation cost more than the operation itself.
 */
import { isServiceError, ServiceError } from '../errors.js';
import type { CounterBackend } from './counters.js';

/** The deadline of one limiter call: `guard` runs a counter operation within it; `end` releases it. */
export interface Budget {
  guard: <T>(operation: () => Promise<T>) => Promise<T>;
  end: () => void;
}

export class CallBudgets {
  constructor(
    private readonly counters: Pick<CounterBackend, 'assertReady' | 'remote'>,
    private readonly timeoutMs: number,
  ) {}

  /** A fresh deadline, started by its first guarded operation; the caller must `end` it. */
  open(): Budget {
    if (!this.counters.remote) return { guard: (operation) => this.checked(operation), end: () => undefined };
    let timer: NodeJS.Timeout | undefined;
    let expired: Promise<never> | undefined;
    return {
      guard: (operation) => {
        expired ??= new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`limiter call took over ${this.timeoutMs} ms`)), this.timeoutMs);
        });
        const deadline = expired;
        return this.checked(() => Promise.race([operation(), deadline]));
      },
      end: () => clearTimeout(timer),
    };
  }

  /** `call` within a fresh deadline, released whatever its outcome. */
  async within<T>(call: (budget: Budget) => Promise<T>): Promise<T> {
    const budget = this.open();
    try {
      return await call(budget);
    } finally {
      budget.end();
    }
  }

  /** Without a counter operation to fail, a backend known to be down still answers 503, as it would with one. */
  assertReachable(): void {
    try {
      this.counters.assertReady();
    } catch (err) {
      throw unavailable(err);
    }
  }

  private async checked<T>(operation: () => Promise<T>): Promise<T> {
    try {
      this.counters.assertReady();
      return await operation();
    } catch (err) {
      throw unavailable(err);
    }
  }
}

function unavailable(err: unknown): Error {
  if (isServiceError(err)) return err;
  return new ServiceError('SERVICE_UNAVAILABLE', { details: 'usage limits cannot be checked right now', cause: err });
}
