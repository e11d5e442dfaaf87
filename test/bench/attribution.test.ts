import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { coreShares, loopDelaySince, processScheduling, scheduling } from './attribution.js';
import type { Sample } from './measure.js';
import { LOOP_DELAY_PRELOAD } from './procs.js';
import { verdict } from './report.js';

const sample = (over: Partial<Sample>): Sample => ({
  perSecond: 1000,
  p50Ms: 5,
  p99Ms: 20,
  p999Ms: null,
  maxMs: null,
  cpuMicrosPerOp: 70,
  systemShare: null,
  cpuMicrosPerOpByProcess: null,
  peakRssBytes: null,
  ops: 4000,
  errors: 0,
  logBytesPerOp: null,
  allocatedBytesPerOp: null,
  gcMaxPauseMs: 2,
  gcPauseShare: null,
  redisCommandsPerOp: null,
  loopDelay: { samples: 2000, p50Ms: 1, p99Ms: 8, maxMs: 12 },
  runQueueWaitShare: 0,
  involuntarySwitchesPerSecond: 0,
  core0OtherShare: 0,
  core1BusyShare: 0.3,
  stealShare: 0,
  generatorBusyShare: 0.2,
  generatorWaitShare: 0,
  loadAverage: 1,
  ...over,
});

describe('the per-round reading of a tail', () => {
  it('puts a p99 above twice the longest event-loop delay (plus the sampler period) outside the server', () => {
    expect(verdict(sample({ p99Ms: 29 }))).toBe('outside the server');
    expect(verdict(sample({ p99Ms: 29, generatorWaitShare: 0.2 }))).toBe('outside the server: wrk waited for its CPU');
  });

  it('within that bound, names what lengthened the turns', () => {
    expect(verdict(sample({ p99Ms: 28, runQueueWaitShare: 0.06 }))).toBe('server turns: core 0 shared');
    expect(verdict(sample({ gcMaxPauseMs: 6 }))).toBe('server turns: GC');
    expect(verdict(sample({}))).toBe('server turns: work per turn');
  });

  it('reads nothing without the sampler', () => {
    expect(verdict(sample({ loopDelay: null }))).toBe('');
  });
});

describe('what the kernel says', () => {
  it('shares of each core between two readings of /proc/stat', () => {
    const shares = coreShares(
      [
        { busy: 100, steal: 0, total: 1000 },
        { busy: 0, steal: 0, total: 1000 },
      ],
      [
        { busy: 150, steal: 10, total: 1100 },
        { busy: 100, steal: 0, total: 1100 },
      ],
    );
    expect(shares).toEqual([
      { busy: 0.5, steal: 0.1, ticks: 100 },
      { busy: 1, steal: 0, ticks: 100 },
    ]);
  });

  it('reads this process\u2019s scheduling, its threads summed at least as much as its main thread', () => {
    const main = scheduling(process.pid);
    const all = processScheduling(process.pid);
    expect(main.runNs).toBeGreaterThan(0);
    expect(all.runNs).toBeGreaterThanOrEqual(main.runNs);
    expect(Number.isInteger(main.involuntary)).toBe(true);
  });
});

describe('the loop-delay preload', () => {
  it('writes the delay since the previous signal, a stall included', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'loop-delay-')), 'delay.jsonl');
    // Says it runs (the preload is in place by then: SIGUSR2 would end it otherwise), and blocks its
    // event loop for 60 ms when told on stdin: after the first reading, however slow the machine.
    const script =
      "console.log('ready'); process.stdin.on('data', () => { const t = Date.now(); while (Date.now() - t < 60); }); setInterval(() => {}, 1000);";
    const child = spawn(process.execPath, [`--import=${pathToFileURL(LOOP_DELAY_PRELOAD).href}`, '-e', script], {
      env: { ...process.env, BENCH_LOOP_DELAY_FILE: file },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await waitFor(() => out.includes('ready'));
      const pid = child.pid!;
      const first = await loopDelaySince(pid, file);
      expect(first?.samples).toBeGreaterThanOrEqual(0);
      child.stdin.write('stall\n');
      const stalled = await waitFor(async () => {
        const d = await loopDelaySince(pid, file);
        return d !== null && d.maxMs >= 50 ? d : undefined;
      });
      expect(stalled.maxMs).toBeLessThan(1000);
    } finally {
      child.kill();
    }
  });
});
