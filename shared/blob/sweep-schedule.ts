/**
 * Runs the blob sweep (sweep.ts) every interval, with jitter, for as long as the process lives.
 * A sweep never crashes its process: whatever it throws is logged and the next interval tries
 * again. `claim` lets processes sharing a store take turns (sweep-lock.ts); without it every
 * process sweeps, which is harmless since a sweep is idempotent.
 */
import type { Logger } from '../log.js';

export interface BlobSweeperOptions {
  /** BLOB_SWEEP_INTERVAL_SECONDS in ms; each wait is this ± 25 % at random. */
  intervalMs: number;
  /** One pass; `signal` is aborted when the sweeper closes. */
  sweep: (signal: AbortSignal) => Promise<unknown>;
  /** Resolves true if this process should sweep now; default always. */
  claim?: () => Promise<boolean>;
  logger: Logger;
  /** [0, 1); tests fix the jitter. */
  random?: () => number;
}

export interface BlobSweeper {
  /** Stops the timer and waits for a sweep in progress to stop at its next page. Idempotent. */
  close(): Promise<void>;
}

/** ± 25 %: workers started together (a deploy) drift apart instead of listing the store in step. */
const JITTER = 0.25;

export function startBlobSweeper(options: BlobSweeperOptions): BlobSweeper {
  const { intervalMs, logger, random = Math.random } = options;
  if (!Number.isInteger(intervalMs) || intervalMs < 1) throw new RangeError('intervalMs must be a positive integer');
  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const runOnce = async (): Promise<void> => {
    try {
      if (options.claim !== undefined && !(await options.claim())) {
        logger.debug('blob sweep skipped: another process sweeps this interval');
        return;
      }
      await options.sweep(stop.signal);
    } catch (err) {
      if (stop.signal.aborted) return;
      logger.warn({ err }, 'blob sweep failed; the next interval tries again');
    }
  };
  const schedule = (): void => {
    if (stop.signal.aborted) return;
    const delay = Math.round(intervalMs * (1 - JITTER + 2 * JITTER * random()));
    timer = setTimeout(() => {
      running = runOnce().finally(() => {
        running = undefined;
        schedule();
      });
    }, delay);
    // A pending sweep never keeps a process alive.
    timer.unref();
  };

  schedule();
  return {
    close() {
      closing ??= (async () => {
        stop.abort();
        clearTimeout(timer);
        await running;
      })();
      return closing;
    },
  };
}
