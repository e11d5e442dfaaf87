/**
 * WebSocket load of `npm run bench`: hash messages over `connections` connections, each pipelined
 * with 64 messages in flight (below the server's in-flight bound of 256, so no message is refused).
 * run.ts runs it as its own process pinned to the load core, like wrk:
 *
 *   node --import tsx test/bench/ws.ts <ws url with api_key> <connections> <milliseconds>
 *
 * and reads one JSON line, {"messages": replies received, "seconds": first send to last reply}.
 * Every reply must be a success: the key must be one whose plan has no rate limit (enterprise), or
 * the figures measure the limiter.
 */
import { pathToFileURL } from 'node:url';
import { WebSocket } from 'ws';

const IN_FLIGHT = 64;
const DATA = 'The quick brown fox jumps over the lazy dog, 64 bytes of input.!';

export interface WsLoadResult {
  /** Replies received, every one a success. */
  messages: number;
  /** From the first message sent to the last reply received. */
  seconds: number;
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`/v2/ws upgrade refused with ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Keep IN_FLIGHT messages outstanding on `ws` until `until`; resolves with the replies received. */
function drive(ws: WebSocket, until: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let received = 0;
    let outstanding = 0;
    const send = (): void => {
      ws.send(`{"action":"hash","id":"${sent++}","data":"${DATA}"}`);
      outstanding += 1;
    };
    const onMessage = (data: Buffer): void => {
      outstanding -= 1;
      // Every reply is a success, or the run measures nothing.
      if (!data.includes('"success":true')) {
        cleanup();
        reject(new Error(`/v2/ws error reply: ${data.toString().slice(0, 300)}`));
        return;
      }
      received += 1;
      if (performance.now() < until) send();
      else if (outstanding === 0) {
        cleanup();
        resolve(received);
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

export async function runWebSocketLoad(url: string, connections: number, durationMs: number): Promise<WsLoadResult> {
  const sockets = await Promise.all(Array.from({ length: connections }, () => open(url)));
  try {
    const started = performance.now();
    const counts = await Promise.all(sockets.map((ws) => drive(ws, started + durationMs)));
    return { messages: counts.reduce((a, b) => a + b, 0), seconds: (performance.now() - started) / 1000 };
  } finally {
    for (const ws of sockets) ws.close(1000);
  }
}

export const WS_IN_FLIGHT = IN_FLIGHT;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url, connections, ms] = process.argv.slice(2);
  if (url === undefined) throw new Error('usage: ws.ts <ws url> <connections> <milliseconds>');
  const result = await runWebSocketLoad(url, Number(connections ?? 16), Number(ms ?? 5000));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
