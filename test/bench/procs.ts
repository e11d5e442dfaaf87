/**
 * The processes a benchmark measures, and what the kernel says about them: servers are pinned to
 * core 0 and load generators to core 1 (`taskset`, util-linux) when the machine has both, so the
 * generator never takes the server's core; CPU time is user+sys from /proc/<pid>/stat (every
 * thread of the process), peak RSS is VmHWM from /proc/<pid>/status, reset per measurement by
 * writing 5 to /proc/<pid>/clear_refs (proc(5)).
 *
 * A server's stdout and stderr go to a file, as a deployment's log would: the request log is
 * written at its default level and costs what it costs, with no reader in this process.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

export const ROOT = path.join(import.meta.dirname, '..', '..');

/** The preload that samples a server's event-loop delay (loop-delay.mjs; read by attribution.ts). */
export const LOOP_DELAY_PRELOAD = path.join(ROOT, 'test', 'bench', 'loop-delay.mjs');

export type Core = 'server' | 'load';

const TASKSET = findTaskset();
const CLOCK_TICKS_PER_SECOND = Number(readCommand('getconf', ['CLK_TCK']) ?? 100);

function readCommand(file: string, args: string[]): string | undefined {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

function findTaskset(): string | undefined {
  if (os.cpus().length < 2) return undefined;
  return readCommand('sh', ['-c', 'command -v taskset']) || undefined;
}

/** How processes are placed, for the report. */
export function placement(): string {
  return TASKSET ? 'servers on core 0, load generators on core 1 (taskset)' : 'unpinned (taskset missing or one core)';
}

/** `command args` pinned to the core of `role`, when pinning is available. */
export function pinned(role: Core, command: string, args: string[]): [string, string[]] {
  if (!TASKSET) return [command, args];
  return [TASKSET, ['-c', role === 'server' ? '0' : '1', command, ...args]];
}

export interface ServerOptions {
  name: string;
  /** Program and arguments, as run without pinning (e.g. node and a script). */
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Printed once the server serves; its first group, when present, is the URL. */
  ready: RegExp;
  logDir: string;
  readyTimeoutMs?: number;
  /**
   * A Node server only: preload loop-delay.mjs (`--import`, before the other arguments), which
   * writes the event loop's delay to `loopDelayFile` when the bench asks (attribution.ts).
   */
  loopDelay?: boolean;
}

export class ServerProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Where the loop-delay preload writes, when the server has it (ServerOptions.loopDelay). */
  readonly loopDelayFile: string | undefined;
  url = '';
  private readonly child: ChildProcess;
  private readonly exited: Promise<unknown>;

  private constructor(options: ServerOptions) {
    this.name = options.name;
    this.logFile = path.join(options.logDir, `${options.name.replace(/[^\w.-]+/g, '_')}-${Date.now()}.log`);
    const log = fs.openSync(this.logFile, 'a');
    this.loopDelayFile = options.loopDelay === true ? `${this.logFile}.loop-delay.jsonl` : undefined;
    const loopDelay = this.loopDelayFile === undefined ? undefined : { BENCH_LOOP_DELAY_FILE: this.loopDelayFile };
    const serverArgs = loopDelay === undefined ? options.args : [`--import=${pathToFileURL(LOOP_DELAY_PRELOAD).href}`, ...options.args];
    const [command, args] = pinned('server', options.command, serverArgs);
    this.child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...options.env, ...loopDelay }, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    if (this.child.pid === undefined) throw new Error(`${options.name} did not start`);
    this.pid = this.child.pid;
    this.exited = once(this.child, 'exit');
  }

  /** Starts the process and returns at once (cold start polls it from outside). */
  static launch(options: ServerOptions): ServerProcess {
    return new ServerProcess(options);
  }

  /** Starts the process and waits for its ready line (read from its log file). */
  static async start(options: ServerOptions): Promise<ServerProcess> {
    const proc = new ServerProcess(options);
    const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
    for (;;) {
      const match = options.ready.exec(proc.log());
      if (match) {
        proc.url = match[1] ?? '';
        return proc;
      }
      if (!proc.running() || Date.now() > deadline) {
        await proc.stop();
        throw new Error(`${options.name} did not get ready (${proc.child.exitCode ?? proc.child.signalCode ?? 'timeout'}):\n${proc.log()}`);
      }
      await sleep(20);
    }
  }

  running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  log(): string {
    return fs.readFileSync(this.logFile, 'utf8');
  }

  logBytes(): number {
    return fs.statSync(this.logFile).size;
  }

  async stop(): Promise<void> {
    if (!this.running()) return;
    this.child.kill('SIGTERM');
    const killed = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(killed);
  }
}

/** What a process's `--trace-gc-nvp` lines say (one line per collection, in its log). */
export interface GcTrace {
  /** Bytes the process allocated between the collections traced (V8's `allocated=`, summed). */
  allocatedBytes: number;
  /** Every pause, in ms (`pause=`). */
  pausesMs: number[];
  /** Bytes of the log that are these lines, not the service's own output. */
  traceBytes: number;
}

/** The GC trace lines written to `logFile` from byte `from` on. */
export function gcTraceSince(logFile: string, from: number): GcTrace {
  const fd = fs.openSync(logFile, 'r');
  let text: string;
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - from));
    fs.readSync(fd, buf, 0, buf.length, from);
    text = buf.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
  const trace: GcTrace = { allocatedBytes: 0, pausesMs: [], traceBytes: 0 };
  for (const line of text.split('\n')) {
    if (!line.includes(' gc=')) continue;
    trace.traceBytes += Buffer.byteLength(line) + 1;
    const allocated = / allocated=(\d+)/.exec(line);
    const pause = / pause=([\d.]+)/.exec(line);
    if (allocated) trace.allocatedBytes += Number(allocated[1]);
    if (pause) trace.pausesMs.push(Number(pause[1]));
  }
  return trace;
}

/** User and system CPU time of a process so far, in microseconds (every thread, clock-tick resolution). */
export function cpuTimes(pid: number): { user: number; system: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Field 2 (comm) may hold spaces; the fields after its closing parenthesis start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const micros = (ticks: string | undefined): number => (Number(ticks) / CLOCK_TICKS_PER_SECOND) * 1e6;
  return { user: micros(fields[11]), system: micros(fields[12]) }; // utime (14) and stime (15)
}

/** The nice value of a process's main thread (field 19 of /proc/<pid>/stat; other threads may differ). */
export function niceValue(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** "at nice N" or "SCHED_IDLE": the main thread's policy (field 41 of /proc/<pid>/stat; 5 is SCHED_IDLE) and nice value. */
export function schedulingOf(pid: number): string {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[38] === '5' ? 'SCHED_IDLE' : `at nice ${fields[16]}`;
}

export function cpuMicros(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/** Peak resident set size since start or the last `resetPeakRss`, in bytes. */
export function peakRssBytes(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM for ${pid}`);
  return Number(m[1]) * 1024;
}

export function resetPeakRss(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** A loopback port free right now (for a server whose port must be known before it prints it). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/**
 * Moves every thread of a running process onto `core` (`taskset -a -c -p`); threads it starts later
 * inherit the mask. For a bench that places processes after they start (bulk.ts `--placement split`).
 */
export function pinProcess(pid: number, core: number): void {
  if (!TASKSET) throw new Error('pinning needs taskset (util-linux) and two cores');
  execFileSync(TASKSET, ['-a', '-c', '-p', String(core), String(pid)], { stdio: 'ignore' });
}

/** Runs a program pinned to the core of `role`; resolves with its stdout, rejects on a non-zero exit. */
export async function runPinned(
  role: Core,
  command: string,
  args: string[],
  env: Record<string, string> = {},
  /** Called with the program's pid once it runs (taskset execs it: the pid is the program's). */
  onSpawn?: (pid: number) => void,
): Promise<string> {
  const [file, argv] = pinned(role, command, args);
  const child = spawn(file, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) onSpawn?.(child.pid);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${err || out}`);
  return out;
}

/** Pins this process (the harness: polling, reading /proc) to the load core, off the servers' core. */
export function pinHarness(): void {
  if (TASKSET) execFileSync(TASKSET, ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
}
