import type { Principal } from '../../shared/auth/principal.js';
import type { JobKind, JobPayloads, JobResults } from '../../shared/jobs/contracts.js';
import { computeMemoryJob, isMemoryKind, type MemoryKind } from '../../shared/jobs/compute.js';
import type { JobQueue } from '../../shared/queue/types.js';

export interface ExecutorOptions {
  queue: JobQueue;
  /** INLINE_MAX_BYTES: hashing 64 B costs ~1.5 µs, a queue round trip ~0.65–15 ms (issue 3 §3). */
  inlineMaxBytes: number;
  syncTimeoutMs: number;
}

/**
 * Runs a request's job and waits for its result. Small in-memory jobs are computed on this node
 * with the same core the workers run; everything else goes through the queue.
 */
export class JobExecutor {
  constructor(private readonly options: ExecutorOptions) {}

  /**
   * `waitMs` lengthens the wait for a job whose own work is bounded by a longer timeout than
   * SYNC_TIMEOUT (a URL fetch may take up to 60 s); the wait is never shorter than SYNC_TIMEOUT.
   */
  async run<K extends JobKind>(kind: K, payload: JobPayloads[K], principal: Principal, inputBytes?: number, waitMs = 0): Promise<JobResults[K]> {
    if (inputBytes !== undefined && inputBytes <= this.options.inlineMaxBytes && isMemoryKind(kind)) {
      // K is narrowed to a memory kind at run time; TypeScript cannot carry that to the payload type.
      const compute = computeMemoryJob as (k: MemoryKind, p: unknown) => unknown;
      return compute(kind, payload) as JobResults[K];
    }
    return this.options.queue.run(kind, payload, { accountId: principal.accountId, timeoutMs: Math.max(this.options.syncTimeoutMs, waitMs) });
  }

  submit<K extends JobKind>(kind: K, payload: JobPayloads[K], principal: Principal, idempotencyKey?: string): Promise<{ id: string; created: boolean }> {
    return this.options.queue.submit(kind, payload, { accountId: principal.accountId, idempotencyKey });
  }
}
