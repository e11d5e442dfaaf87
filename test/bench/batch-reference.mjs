// The in-process reference of the /v2/batch benchmark: what the work of one batch costs with nothing
// around it — JSON.parse of the request body, SHA-224 (node:crypto) of every item's UTF-8 bytes,
// JSON.stringify of the reply — looped for a while on this process's own CPU time.
// Usage: node batch-reference.mjs <body file> <milliseconds>; prints {"batches":n,"cpu_us":t,"wall_us":w}.
import { createHash } from 'node:crypto';
import fs from 'node:fs';

const [bodyFile, ms] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile, 'utf8');

function once() {
  const request = JSON.parse(body);
  const results = request.items.map((item) => ({ id: item.id, hash: createHash('sha224').update(item.data).digest('hex') }));
  return JSON.stringify({
    success: true,
    results,
    count: results.length,
    algorithm: 'SHA-224',
    encoding: 'hex',
    timestamp: new Date().toISOString(),
    processing_time_ms: 0,
  });
}

for (let i = 0; i < 50; i++) once(); // warm-up
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
let batches = 0;
let bytes = 0;
while (performance.now() - wall0 < Number(ms)) {
  bytes += once().length;
  batches += 1;
}
const cpu = process.cpuUsage(cpu0);
process.stdout.write(`${JSON.stringify({ batches, cpu_us: cpu.user + cpu.system, wall_us: (performance.now() - wall0) * 1000, bytes })}\n`);
