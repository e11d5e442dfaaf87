/**
 * Work a node needs soon but not for its first request (docs/decisions.md "Speed"): run once the
 * first answer has been sent, or `delayMs` after listening, whichever comes first, so a cold start
 * reaches its first 200 without paying for it and the work is still done before most requests.
 */
import type { Server, ServerResponse } from 'node:http';

export function afterFirstAnswer(server: Server, delayMs: number, run: () => void): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    server.off('request', onRequest);
    run();
  };
  const onRequest = (_req: unknown, res: ServerResponse): void => {
    res.once('finish', () => setImmediate(once));
  };
  const timer = setTimeout(once, delayMs);
  timer.unref();
  server.on('request', onRequest);
}
