/**
 * WORKER_BULK_NICE: the worker process at a lower OS priority, so a bulk job's hashing takes only
 * the CPU an API node (or Redis) on the same host leaves free (docs/decisions.md "Bulk jobs").
 *
 * - A nice value (1–19) belongs to each thread on Linux, and V8's and libuv's threads already run
 *   by the time this is called: each is set (/proc/self/task); threads started later inherit it.
 * - `idle` is the SCHED_IDLE policy (sched(7)), set on every thread by chrt(1) from util-linux:
 *   a waking thread of any other policy preempts an idle one at once, where a nice-19 thread keeps
 *   its CPU to the end of its slice. Without chrt (or where it is refused) the worker falls back to
 *   nice 19 and says so.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { Logger } from '../../shared/log.js';

/** A bulk-serving worker's priority: a nice value, or SCHED_IDLE. */
export type BulkPriority = number | 'idle';

/** Lowers the process to `priority` (0 leaves it as it is). */
export function applyBulkPriority(priority: BulkPriority, logger: Logger): void {
  if (priority === 'idle') idleScheduling(logger);
  else if (priority > 0) lowerPriority(priority, logger);
}

/** Raises every thread's nice value to `nice` (never lowers one: that would need privileges). */
export function lowerPriority(nice: number, logger: Logger): void {
  let threads: number[];
  try {
    threads = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    threads = [0]; // no /proc: the calling thread (the whole process where nice is per process)
  }
  let failed = 0;
  for (const thread of threads) {
    try {
      if (os.getPriority(thread) < nice) os.setPriority(thread, nice);
    } catch {
      failed++; // a thread that exited since the listing, or a platform that refuses
    }
  }
  if (failed > 0 && failed === threads.length) logger.warn({ nice }, 'WORKER_BULK_NICE could not be applied');
  else logger.info({ nice, threads: threads.length }, 'worker priority lowered (WORKER_BULK_NICE)');
}

/** SCHED_IDLE on every thread (`chrt --idle --all-tasks --pid 0 <pid>`); nice 19 where that fails. */
function idleScheduling(logger: Logger): void {
  try {
    // Switching to SCHED_IDLE needs no privileges (sched(7)); only leaving it would.
    execFileSync('chrt', ['--idle', '--all-tasks', '--pid', '0', String(process.pid)], { stdio: 'ignore', timeout: 5_000 });
    logger.info({ policy: 'SCHED_IDLE' }, 'worker priority lowered (WORKER_BULK_NICE)');
  } catch {
    logger.warn({ fallback: 19 }, 'WORKER_BULK_NICE=idle could not be applied (chrt from util-linux missing or refused): nice 19 instead');
    lowerPriority(19, logger);
  }
}
