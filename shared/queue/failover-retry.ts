/**
 * A job add that meets a Redis failover (the primary gone, a replica being promoted, a cluster
 * slot without a master for a moment) is tried again with the same job id until `budgetMs` has
 * passed; only then does the request answer 503 SERVICE_UNAVAILABLE with Retry-After. Safe to
 * repeat: BullMQ adds a job id once, and the owner and idempotency keys are written with the same
 * values (docs/decisions.md "Redis topologies").
 */
import { isRedisUnavailable } from './redis-connection.js';

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 1000;

/** Runs `attempt` until it succeeds, fails otherwise than "Redis unavailable", or `budgetMs` is spent. */
export async function retryThroughFailover<T>(attempt: () => Promise<T>, budgetMs: number, onRetry?: (err: unknown) => void): Promise<T> {
  const deadline = Date.now() + budgetMs;
  let delay = FIRST_DELAY_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!isRedisUnavailable(err) || Date.now() + delay >= deadline) throw err;
      onRetry?.(err);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
