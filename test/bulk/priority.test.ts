/**
 * WORKER_BULK_NICE (workers/bulk/priority.ts): every thread of the process, not just the main one,
 * runs at the configured nice value, since Linux keeps a nice value per thread. Run in a child
 * process, so the test runner's own priority is untouched.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.js';

const ROOT = path.join(import.meta.dirname, '..', '..');

/** The nice value of each thread of a child that lowered its priority to `nice`, as /proc reports them. */
function threadNicesAfter(nice: number): number[] {
  const script = [
    "import fs from 'node:fs';",
    "import { lowerPriority } from './workers/bulk/priority.ts';",
    "import { createLogger } from './shared/log.ts';",
    `lowerPriority(${nice}, createLogger('silent'));`,
    // Field 19 of /proc/<pid>/task/<tid>/stat is the nice value (after the parenthesised name).
    "const nices = fs.readdirSync('/proc/self/task').map((tid) => Number(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]));",
    'console.log(JSON.stringify(nices));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as number[];
}

describe.runIf(process.platform === 'linux')('WORKER_BULK_NICE', () => {
  it('lowers every thread of the process, V8 and libuv threads included', () => {
    const nices = threadNicesAfter(7);
    expect(nices.length).toBeGreaterThan(1);
    expect(nices.every((n) => n === 7)).toBe(true);
  });

  it('accepts 0 to 19 and refuses anything else at start', () => {
    expect(loadConfig({ WORKER_BULK_NICE: '19' }).WORKER_BULK_NICE).toBe(19);
    expect(loadConfig({}).WORKER_BULK_NICE).toBe(0);
    expect(() => loadConfig({ WORKER_BULK_NICE: '20' })).toThrow(/WORKER_BULK_NICE/);
    expect(() => loadConfig({ WORKER_BULK_NICE: '-1' })).toThrow(/WORKER_BULK_NICE/);
  });
});
