/**
 * The API node's side of bundles (docs/decisions.md "Jobs and modes"): the synchronous small jobs
 * (hash, hmac, verify) `run` receives in one event-loop turn are collected per queue and timeout
 * and handed over together, on setImmediate or as soon as a bundle is full; bullmq-queue.ts sends
 * each as one BullMQ job and settles its runs from the one reply.
 */
import type { JobResults, QueueName } from '../jobs/contracts.js';
import { parseFailedReason, type BundleItem, type BundleKind, type BundleOutcome } from './bullmq-wire.js';
import { fromJobError } from './execute.js';

/**
 * Bounds of a bundle: its items' inline data (UTF-16 code units of the payload strings) stays
 * within BUNDLE_MAX_BYTES, so one bundle never holds a worker or Redis much longer than the
 * largest single job would; an item larger than that goes alone.
 */
export const DEFAULT_BUNDLE_MAX_ITEMS = 64;
export const BUNDLE_MAX_BYTES = 256 * 1024;

/** A synchronous small job waiting for its bundle to be sent and answered. */
export interface BundledRun {
  item: BundleItem;
  signal: AbortSignal | undefined;
  resolve: (result: JobResults[BundleKind]) => void;
  reject: (err: unknown) => void;
  settled: boolean;
}

export interface OpenBundle {
  queueName: QueueName;
  timeoutMs: number;
  deadline: number;
  runs: BundledRun[];
  bytes: number;
}

export class BundleCollector {
  /** Bundles being filled in this turn, by queue and timeout. */
  private readonly open = new Map<string, OpenBundle>();
  private flushScheduled = false;

  constructor(
    private readonly maxItems: number,
    /** Sends a bundle and settles its runs; never throws. */
    private readonly send: (bundle: OpenBundle) => void,
  ) {}

  /** The run's result, once its bundle has been sent and answered. */
  add(queueName: QueueName, timeoutMs: number, item: BundleItem, signal: AbortSignal | undefined): Promise<JobResults[BundleKind]> {
    const key = `${queueName} ${timeoutMs}`;
    const bytes = inlineBytes(item);
    let open = this.open.get(key);
    if (open !== undefined && (open.runs.length >= this.maxItems || open.bytes + bytes > BUNDLE_MAX_BYTES)) {
      this.open.delete(key);
      this.send(open);
      open = undefined;
    }
    if (open === undefined) {
      open = { queueName, timeoutMs, deadline: Date.now() + timeoutMs, runs: [], bytes: 0 };
      this.open.set(key, open);
    }
    const bundle = open;
    bundle.bytes += bytes;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return new Promise((resolve, reject) => {
      bundle.runs.push({ item, signal, resolve, reject, settled: false });
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const bundles = [...this.open.values()];
    this.open.clear();
    for (const bundle of bundles) this.send(bundle);
  }
}

export function settle(run: BundledRun, outcome: { result: JobResults[BundleKind] } | { error: unknown }): void {
  if (run.settled) return;
  run.settled = true;
  if ('result' in outcome) run.resolve(outcome.result);
  else run.reject(outcome.error);
}

/** An item's outcome as the worker sent it; none (a reply shorter than its bundle) reads as INTERNAL_ERROR. */
export function settleWith(run: BundledRun, outcome: BundleOutcome | null): void {
  if (outcome === null) settle(run, { error: fromJobError(parseFailedReason(undefined)) });
  else if ('result' in outcome) settle(run, outcome);
  else settle(run, { error: fromJobError(outcome.error) });
}

/** A signal that aborts once every one of `signals` has (none if some run has no caller signal). */
export function allAborted(signals: Array<AbortSignal | undefined>): { signal: AbortSignal | undefined; dispose: () => void } {
  if (signals.some((signal) => signal === undefined)) return { signal: undefined, dispose: () => undefined };
  const controller = new AbortController();
  let gone = 0;
  const onAbort = (): void => {
    gone += 1;
    if (gone === signals.length) controller.abort();
  };
  for (const signal of signals) {
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const signal of signals) signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** The inline data a small job carries, in string length: what a bundle's size bound counts. */
function inlineBytes({ payload }: BundleItem): number {
  const extra = 'key' in payload ? payload.key.length : 'expected' in payload ? payload.expected.length : 0;
  return payload.data.length + extra;
}
