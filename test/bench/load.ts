/** A small closed-loop load generator: `concurrency` keep-alive connections for `durationMs`. */
import { Pool } from 'undici';

export interface LoadOptions {
  origin: string;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  concurrency: number;
  durationMs: number;
  /** Status every response must have; others count as errors. */
  expectStatus?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const pool = new Pool(options.origin, { connections: options.concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + options.durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const res = await pool.request({ path: options.path, method: options.method ?? 'POST', headers: options.headers, body: options.body });
        await res.body.dump();
        if (res.statusCode !== (options.expectStatus ?? 200)) errors++;
        else latencies.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsed = performance.now() - started;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, perSecond: (latencies.length / elapsed) * 1000, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

/** A multipart/form-data body with one `file` part, built once so the generator costs nothing per request. */
export function multipartBody(bytes: Buffer, filename = 'bench.bin'): { body: Buffer; contentType: string } {
  const boundary = `----sha224dbench${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}
