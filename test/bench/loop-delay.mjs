// Preloaded (`node --import`) into every server `npm run bench` loads, to tell a stall of the server
// apart from the scheduling of the load generator: it samples the event loop's delay
// (perf_hooks.monitorEventLoopDelay, a libuv timer in C++: no JavaScript runs per sample) and, on
// each SIGUSR2 from the bench, writes what it saw since the previous one to BENCH_LOOP_DELAY_FILE
// (one JSON line, appended) and starts over. The bench signals before and after a measurement
// (test/bench/loop-delay.ts). Nothing of the server's own code path changes; without the variable
// it does nothing.
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
const RESOLUTION_MS = 2;
if (file) {
  // 2 ms: a stall shows as a sample of its full length; 500 samples a second keep the p99 meaningful.
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let seq = 0;
  // A sample is the time between two firings of the timer: the delay is what exceeds the resolution.
  const delayMs = (ns) => Math.max(0, Math.round(ns / 1e3 - RESOLUTION_MS * 1e3) / 1e3);
  process.on('SIGUSR2', () => {
    const line = {
      seq: ++seq,
      samples: histogram.count,
      p50Ms: delayMs(histogram.percentile(50)),
      p99Ms: delayMs(histogram.percentile(99)),
      maxMs: delayMs(histogram.max),
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
    histogram.reset();
  });
}
