/**
 * Spawn the service's real entry points as child processes: the dist/ bundles that `npm start`,
 * `npm run api` and `npm run worker` run (built once by test/global-setup.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.join(import.meta.dirname, '..', '..');

export interface SpawnedProcess {
  child: ChildProcess;
  pid: number;
  output: () => string;
  /** Resolves with the first match of `pattern` in stdout/stderr. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code once the process has exited, sending nothing. */
  exited: Promise<number | null>;
}

export type Entry = 'embedded' | 'api' | 'worker';

export function spawnEntry(entry: Entry, env: Record<string, string>, args: string[] = []): SpawnedProcess {
  return spawnNode(entry, [path.join(ROOT, 'dist', `${entry}.js`), ...args], env);
}

/**
 * Runs the test's own node binary with `args`; `label` names it in timeout messages. `nice`: start
 * it through nice(1) at that nice value, `schedIdle` through chrt(1) under SCHED_IDLE, so every
 * thread it ever has inherits them (both exec node: the pid is node's).
 */
export function spawnNode(
  label: string,
  args: string[],
  env: Record<string, string> = {},
  options: { nice?: number; schedIdle?: boolean } = {},
): SpawnedProcess {
  let [file, argv] = [process.execPath, args];
  if (options.nice !== undefined) [file, argv] = ['nice', ['-n', String(options.nice), file, ...argv]];
  // SCHED_IDLE (sched(7)): runs only on CPU time no normal thread wants; chrt(1) execs the rest.
  if (options.schedIdle === true) [file, argv] = ['chrt', ['--idle', '0', file, ...argv]];
  const child = spawn(file, argv, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    text += chunk.toString();
    for (const w of waiters) w();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    pid: child.pid!,
    exited,
    output: () => text,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const m = pattern.exec(text);
          if (m) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(m);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern} in output of ${label}:\n${text}`));
        }, timeoutMs);
        waiters.add(check);
        void exited.then(() => {
          if (waiters.has(check)) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`${label} exited (${child.exitCode} ${child.signalCode}) before ${pattern}:\n${text}`));
          }
        });
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Peak resident set size of a process, from /proc (Linux), in bytes. */
export function peakRssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  if (!m) throw new Error('VmHWM not found');
  return Number(m[1]) * 1024;
}
