import type { Principal } from '../../shared/auth/principal.js';
import type { JobKind, JobPayloads, JobResults } from '../../shared/jobs/contracts.js';
import { computeMemoryJob, isMemoryKind, type MemoryKind } from '../../shared/jobs/compute.js';
import type { JobRecorder } from '../../shared/metrics/record.js';
import { toJobError } from '../../shared/queue/execute.js';
import type { JobQueue, WebhookTarget } from '../../shared/queue/types.js';
import { currentCallerGone } from '../../shared/trace.js';

export interface ExecutorOptions {
  queue: JobQueue;
  /** INLINE_MAX_BYTES: hashing 64 B costs ~1.5 µs, a queue round trip ~0.65–15 ms. */
  inlineMaxBytes: number;
  syncTimeoutMs: number;
  /** Inline computations are jobs too: run time and outcome, path "inline". */
  jobs?: JobRecorder;
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
  async run<K extends JobKind>(
    kind: K,
    payload: JobPayloads[K],
    principal: Principal,
    inputBytes?: number,
    waitMs = 0,
  ): Promise<JobResults[K]> {
    if (this.computesInline(kind, inputBytes)) return Promise.resolve(this.computeInline(kind, payload));
    return this.queued(kind, payload, principal, waitMs);
  }

  /**
   * As `run`, but a job computed on this node is answered in this turn, not through a promise
   * (and throws as `run` would reject): the small hashes, verifications and HMACs are most
   * requests, and each promise and microtask on their path is paid per request.
   */
  runNow<K extends JobKind>(
    kind: K,
    payload: JobPayloads[K],
    principal: Principal,
    inputBytes?: number,
  ): JobResults[K] | Promise<JobResults[K]> {
    if (this.computesInline(kind, inputBytes)) return this.computeInline(kind, payload);
    return this.queued(kind, payload, principal, 0);
  }

  private computesInline(kind: JobKind, inputBytes: number | undefined): boolean {
    return inputBytes !== undefined && inputBytes <= this.options.inlineMaxBytes && isMemoryKind(kind);
  }

  private computeInline<K extends JobKind>(kind: K, payload: JobPayloads[K]): JobResults[K] {
    // K is a memory kind here (computesInline); TypeScript cannot carry that to the payload type.
    const compute = computeMemoryJob as (k: MemoryKind, p: unknown) => JobResults[K];
    return this.inline(kind, () => compute(kind as MemoryKind, payload));
  }

  private queued<K extends JobKind>(kind: K, payload: JobPayloads[K], principal: Principal, waitMs: number): Promise<JobResults[K]> {
    // A caller that hangs up takes its job with it, if no worker has taken it yet (RunOptions.signal).
    return this.options.queue.run(kind, payload, {
      accountId: principal.accountId,
      timeoutMs: Math.max(this.options.syncTimeoutMs, waitMs),
      signal: currentCallerGone(),
    });
  }

  /**
   * A job computed on this node instead of the queue (small inputs; uploads hashed while they
   * arrived): counted like any job, with path "inline".
   */
  inline<K extends JobKind>(kind: K, compute: () => JobResults[K]): JobResults[K] {
    const jobs = this.options.jobs;
    if (jobs === undefined) return compute();
    const started = performance.now();
    try {
      const result = compute();
      jobs.completed(kind, 'inline');
      return result;
    } catch (err) {
      jobs.failed(kind, toJobError(err).code);
      throw err;
    } finally {
      jobs.ran(kind, (performance.now() - started) / 1000);
    }
  }

  /**
   * `idempotency`: the Idempotency-Key and the request's fingerprint (api/http/idempotency.ts).
   * `webhook`: the endpoint the submission named (api/v2/webhook-target.ts), else every matching one.
   */
  submit<K extends JobKind>(
    kind: K,
    payload: JobPayloads[K],
    principal: Principal,
    idempotency?: { key: string; fingerprint: string },
    webhook: WebhookTarget = {},
  ): Promise<{ id: string; created: boolean }> {
    return this.options.queue.submit(kind, payload, {
      accountId: principal.accountId,
      idempotencyKey: idempotency?.key,
      fingerprint: idempotency?.fingerprint,
      // Every async job is announced to webhook endpoints when it finishes.
      webhook,
    });
  }
}
