/**
 * What tells a slow round apart: was the server stalled (its event loop's delay, GC pauses), or
 * was it ready to run but not running (waiting on core 0's run queue behind other work, the
 * hypervisor's steal), or did the load generator's core lag? Read from the kernel (proc(5):
 * /proc/<pid>/schedstat, /proc/<pid>/status, /proc/stat) and from the loop-delay preload
 * (loop-delay.mjs), before and after each measurement.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoopDelay {
  /** Samples of the 2 ms timer (about 500 a second while the loop turns). */
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Asks the preloaded server `pid` for its event-loop delay since the previous ask (SIGUSR2) and
 * waits for its line in `file`: the figures of the interval between two calls. The line is written
 * by the server's event loop, so it comes when the loop gets to it; a paused server never answers.
 */
export async function loopDelaySince(pid: number, file: string, timeoutMs = 5_000): Promise<LoopDelay | null> {
  const before = lineCount(file);
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = readLines(file);
    if (lines.length > before) return JSON.parse(lines[lines.length - 1]!) as LoopDelay;
    if (Date.now() > deadline) return null;
    await sleep(5);
  }
}

function readLines(file: string): string[] {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  } catch {
    return [];
  }
}

const lineCount = (file: string): number => readLines(file).length;

/** The event-loop thread's scheduling (the main thread: /proc/<pid>/schedstat and status are the thread group leader's). */
export interface Scheduling {
  /** ns on a CPU, ns runnable but waiting on a run queue. */
  runNs: number;
  waitNs: number;
  /** Switches away while still runnable (preempted), and while waiting (I/O, epoll). */
  involuntary: number;
  voluntary: number;
}

export function scheduling(pid: number): Scheduling {
  return taskScheduling(`/proc/${pid}`);
}

/** The same for every thread of the process, by thread id (a load generator's work is on its threads). */
export function threadScheduling(pid: number): Map<number, Scheduling> {
  const threads = new Map<number, Scheduling>();
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(task), taskScheduling(`/proc/${pid}/task/${task}`));
    } catch {
      // a thread that ended between the listing and the reading
    }
  }
  return threads;
}

/** Summed over every thread of the process. */
export function processScheduling(pid: number): Scheduling {
  const total: Scheduling = { runNs: 0, waitNs: 0, involuntary: 0, voluntary: 0 };
  for (const t of threadScheduling(pid).values()) {
    total.runNs += t.runNs;
    total.waitNs += t.waitNs;
    total.involuntary += t.involuntary;
    total.voluntary += t.voluntary;
  }
  return total;
}

function taskScheduling(dir: string): Scheduling {
  const [run, wait] = fs.readFileSync(`${dir}/schedstat`, 'utf8').trim().split(' ').map(Number);
  const status = fs.readFileSync(`${dir}/status`, 'utf8');
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return {
    runNs: run ?? NaN,
    waitNs: wait ?? NaN,
    involuntary: field('nonvoluntary_ctxt_switches'),
    voluntary: field('voluntary_ctxt_switches'),
  };
}

/** Clock ticks per core from /proc/stat: busy (every state but idle and iowait) and stolen by the hypervisor. */
export interface CoreTicks {
  busy: number;
  steal: number;
  total: number;
}

export function coreTicks(): CoreTicks[] {
  const cores: CoreTicks[] = [];
  for (const line of fs.readFileSync('/proc/stat', 'utf8').split('\n')) {
    const m = /^cpu(\d+) (.*)$/.exec(line);
    if (!m) continue;
    // user nice system idle iowait irq softirq steal guest guest_nice (guest is counted in user)
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = m[2]!.trim().split(/\s+/).map(Number);
    cores[Number(m[1])] = {
      busy: user + nice + system + irq + softirq,
      steal,
      total: user + nice + system + idle + iowait + irq + softirq + steal,
    };
  }
  return cores;
}

/** The share of each core's time spent busy and stolen between two readings. */
export function coreShares(before: CoreTicks[], after: CoreTicks[]): Array<{ busy: number; steal: number; ticks: number }> {
  return after.map((a, i) => {
    const b = before[i] ?? { busy: 0, steal: 0, total: 0 };
    const ticks = a.total - b.total;
    return { busy: ticks > 0 ? (a.busy - b.busy) / ticks : NaN, steal: ticks > 0 ? (a.steal - b.steal) / ticks : NaN, ticks };
  });
}
