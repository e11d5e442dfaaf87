/**
 * A loopback webhook receiver for tests: records every request (headers as a plain object, raw
 * body, arrival time) and answers from a script — each path's queued answers in order, then 200.
 */
import http from 'node:http';
import { listenOnFreePort } from '../helpers/ports.js';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
  /** The sender's port: two requests with the same one came over one kept-alive connection. */
  remotePort: number | undefined;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the sender is killed or times out). */
  hang?: boolean;
}

export interface Receiver {
  port: number;
  url(path?: string): string;
  received: Received[];
  /** Answers for the next requests to `path`, in order; afterwards 200. */
  script(path: string, ...answers: Answer[]): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, Answer[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), remotePort: req.socket.remotePort });
      const answer = scripts.get(path)?.shift() ?? { status: 200 };
      if (answer.hang === true) return;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? 'ok');
    });
  });
  const port = await listenOnFreePort(server);
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    script(path, ...answers) {
      scripts.set(path, [...(scripts.get(path) ?? []), ...answers]);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
