/**
 * Open-loop load at a fixed rate: request i is due at start + i/rate and its latency counts from
 * that moment, not from when it was sent, so a stalled server is not hidden by requests that waited
 * to be sent (coordinated omission). Keep-alive connections from this process (the harness).
 */
import http from 'node:http';

export interface FixedRateOptions {
  url: string;
  body: string;
  apiKey: string;
  rate: number;
  seconds: number;
}

export interface FixedRateResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

export async function fixedRateLoad(options: FixedRateOptions): Promise<FixedRateResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const url = new URL(options.url);
  const total = options.rate * options.seconds;
  const latencies: number[] = [];
  let errors = 0;
  const one = (due: number): Promise<void> =>
    new Promise((resolve) => {
      const req = http.request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': options.apiKey } },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) errors++;
            latencies.push(performance.now() - due);
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(options.body);
    });
  const start = performance.now();
  const sent: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(one(due));
  }
  await Promise.all(sent);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: total, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), errors };
}
