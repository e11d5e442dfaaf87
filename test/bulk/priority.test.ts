/**
 * WORKER_BULK_NICE (workers/bulk/priority.ts): every thread of the process, not just the main one,
 * runs at the configured nice value or under SCHED_IDLE, since Linux keeps both per thread. Run in a child
 * process, so the test runner's own priority is untouched.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.js';

const ROOT = path.join(import.meta.dirname, '..', '..');

interface ThreadScheduling {
  /** Field 19 of /proc/<pid>/task/<tid>/stat (after the parenthesised name). */
  nice: number;
  /** Field 41: 0 SCHED_OTHER, 5 SCHED_IDLE. */
  policy: number;
}

/**
 * Each thread's scheduling, as /proc reports it, in a child that applied `priority`, once before
 * and once after it started a worker thread (a thread born after the call inherits its policy).
 */
function threadsAfter(
  priority: number | 'idle',
  env: NodeJS.ProcessEnv = process.env,
): { before: ThreadScheduling[]; after: ThreadScheduling[] } {
  const script = [
    "import fs from 'node:fs';",
    "import { Worker } from 'node:worker_threads';",
    "import { applyBulkPriority } from './workers/bulk/priority.ts';",
    "import { createLogger } from './shared/log.ts';",
    `applyBulkPriority(${JSON.stringify(priority)}, createLogger('silent'));`,
    'const read = () => fs.readdirSync("/proc/self/task").map((tid) => {',
    '  const f = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1].split(" ");',
    '  return { nice: Number(f[16]), policy: Number(f[38]) };',
    '});',
    'const before = read();',
    "const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });",
    "worker.on('online', () => { console.log(JSON.stringify({ before, after: read() })); void worker.terminate(); });",
  ].join('\n');
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { before: ThreadScheduling[]; after: ThreadScheduling[] };
}

describe.runIf(process.platform === 'linux')('WORKER_BULK_NICE', () => {
  it('lowers every thread of the process, V8 and libuv threads included, and threads started later', () => {
    const { before, after } = threadsAfter(7);
    expect(before.length).toBeGreaterThan(1);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.map((t) => t.nice)).toEqual(after.map(() => 7));
    expect(after.map((t) => t.policy)).toEqual(after.map(() => 0));
  });

  it('idle puts every thread under SCHED_IDLE, threads started later included', () => {
    const { before, after } = threadsAfter('idle');
    expect(before.length).toBeGreaterThan(1);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.map((t) => t.policy)).toEqual(after.map(() => 5));
  });

  it('idle falls back to nice 19 where chrt cannot be run', () => {
    const { after } = threadsAfter('idle', { ...process.env, PATH: '/nonexistent' });
    expect(after.map((t) => [t.nice, t.policy])).toEqual(after.map(() => [19, 0]));
  });

  it('0 leaves the process as it was (as this test process runs)', () => {
    const own = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    const { after } = threadsAfter(0);
    expect(after.map((t) => [t.nice, t.policy])).toEqual(after.map(() => [Number(own[16]), Number(own[38])]));
  });

  it('accepts 0 to 19 or idle and refuses anything else at start', () => {
    expect(loadConfig({ WORKER_BULK_NICE: 'idle' }).WORKER_BULK_NICE).toBe('idle');
    expect(loadConfig({ WORKER_BULK_NICE: '19' }).WORKER_BULK_NICE).toBe(19);
    expect(() => loadConfig({ WORKER_BULK_NICE: 'lowest' })).toThrow(/WORKER_BULK_NICE: a nice value from 0 to 19, or idle/);
    expect(loadConfig({}).WORKER_BULK_NICE).toBe(0);
    expect(() => loadConfig({ WORKER_BULK_NICE: '20' })).toThrow(/WORKER_BULK_NICE/);
    expect(() => loadConfig({ WORKER_BULK_NICE: '-1' })).toThrow(/WORKER_BULK_NICE/);
  });
});
