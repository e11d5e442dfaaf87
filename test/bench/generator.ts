/**
 * A fixed-rate load generator in a child process (fixed-rate-child.ts) at a chosen nice value. On
 * a shared bench host the generator competes for the CPU with what it measures; in production the
 * clients are elsewhere. Latency counts from each request's due time, so every wait of the
 * generator for a CPU would be charged to the service: run above the service's priority, it is not
 * (docs/decisions.md "Bulk jobs"). A negative nice value needs privileges: without them the
 * generator runs at its parent's, and `nice` says which it got.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FixedRateOptions, FixedRateResult } from './fixed-rate.js';

type Reply = { ready: true } | { result: FixedRateResult } | { error: string };

export class LoadGenerator {
  private constructor(
    private readonly child: ChildProcess,
    /** The nice value its threads got. */
    readonly nice: number,
  ) {}

  get pid(): number {
    return this.child.pid!;
  }

  static async start(nice: number): Promise<LoadGenerator> {
    const child = fork(path.join(import.meta.dirname, 'fixed-rate-child.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the load generator exited (${code}) before it was ready`)));
    });
    // Every thread: on Linux a nice value is per thread, and V8's and libuv's are already running.
    for (const thread of fs.readdirSync(`/proc/${child.pid}/task`).map(Number)) {
      try {
        os.setPriority(thread, nice);
      } catch {
        // EACCES without privileges for a negative value: the thread keeps its priority.
      }
    }
    return new LoadGenerator(child, os.getPriority(child.pid));
  }

  run(options: FixedRateOptions): Promise<FixedRateResult> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`the load generator exited (${code}) during a window`));
      this.child.once('exit', onExit);
      this.child.once('message', (reply: Reply) => {
        this.child.off('exit', onExit);
        if ('result' in reply) resolve(reply.result);
        else reject(new Error('error' in reply ? reply.error : 'the load generator answered out of turn'));
      });
      this.child.send(options);
    });
  }

  stop(): void {
    this.child.kill();
  }
}
