/**
 * WebSocket benchmark (issue 6 §6): hash messages per second on one /v2/ws connection and on 16,
 * each pipelined with 64 messages in flight (below the server's in-flight bound of 256, so no
 * message is refused). Called by test/bench/run.ts; the key must be one whose plan has no rate
 * limit (enterprise), or the figures measure the limiter.
 */
import { WebSocket } from 'ws';

const IN_FLIGHT = 64;
const WARMUP_MS = 1000;
const DATA = 'The quick brown fox jumps over the lazy dog, 64 bytes of input.!';

export interface WsBenchOptions {
  /** Base URL of an API node (http://host:port). */
  url: string;
  apiKey: string;
  /** Timed duration of each run; default BENCH_DURATION_MS or 5000. */
  durationMs?: number;
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`/v2/ws upgrade refused with ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Keep IN_FLIGHT messages outstanding on `ws` until `until`; resolves with the replies counted after `from`. */
function drive(ws: WebSocket, from: number, until: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let counted = 0;
    let outstanding = 0;
    const send = (): void => {
      ws.send(`{"action":"hash","id":"${sent++}","data":"${DATA}"}`);
      outstanding += 1;
    };
    const onMessage = (data: Buffer): void => {
      outstanding -= 1;
      const now = performance.now();
      // Every reply is a success, or the run measures nothing.
      if (!data.includes('"success":true')) {
        cleanup();
        reject(new Error(`/v2/ws error reply: ${data.toString().slice(0, 300)}`));
        return;
      }
      if (now >= from && now < until) counted += 1;
      if (now < until) send();
      else if (outstanding === 0) {
        cleanup();
        resolve(counted);
      }
    };
    const onClose = (code: number): void => {
      cleanup();
      reject(new Error(`/v2/ws closed with ${code} during the benchmark`));
    };
    const cleanup = (): void => {
      ws.off('message', onMessage);
      ws.off('close', onClose);
    };
    ws.on('message', onMessage);
    ws.on('close', onClose);
    for (let i = 0; i < IN_FLIGHT; i++) send();
  });
}

async function measure(url: string, connections: number, durationMs: number): Promise<number> {
  const sockets = await Promise.all(Array.from({ length: connections }, () => open(url)));
  try {
    const from = performance.now() + WARMUP_MS;
    const until = from + durationMs;
    const counts = await Promise.all(sockets.map((ws) => drive(ws, from, until)));
    return counts.reduce((a, b) => a + b, 0) / (durationMs / 1000);
  } finally {
    for (const ws of sockets) ws.close(1000);
  }
}

export async function benchWebSocket(opts: WsBenchOptions): Promise<Array<{ name: string; opsPerSec: number }>> {
  const durationMs = opts.durationMs ?? Number(process.env.BENCH_DURATION_MS ?? 5000);
  const url = new URL('/v2/ws', opts.url.replace(/^http/, 'ws'));
  url.searchParams.set('api_key', opts.apiKey);
  const results: Array<{ name: string; opsPerSec: number }> = [];
  for (const connections of [1, 16]) {
    const opsPerSec = await measure(url.toString(), connections, durationMs);
    results.push({ name: `ws hash, ${connections} connection${connections > 1 ? 's' : ''} × ${IN_FLIGHT} in flight`, opsPerSec });
  }
  return results;
}
