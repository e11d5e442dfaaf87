/**
 * WORKER_BULK_NICE: the worker process at a lower OS priority (a higher nice value), so a bulk
 * job's hashing takes only the CPU an API node (or Redis) on the same host leaves free. On Linux
 * a nice value belongs to each thread, and V8's and libuv's threads already run by the time this
 * is called: each is set (/proc/self/task); threads started later inherit it.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Logger } from '../../shared/log.js';

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
