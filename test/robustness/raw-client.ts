/**
 * A raw TCP client for the robustness tests: sends exact bytes (malformed framing, truncated
 * bodies), can stall or abort at any point, and reports every HTTP response the server wrote
 * and when the server closed the connection.
 */
import net from 'node:net';
import { stallFor } from '../helpers/wait.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

export interface RawExchange {
  responses: RawResponse[];
  /** Milliseconds from connect until the server closed (or until we gave up and closed). */
  closedAfterMs: number;
  /** True when the server closed the connection (rather than our own abort or give-up). */
  serverClosed: boolean;
  /** Bytes received that did not parse as complete responses. */
  trailing: string;
}

export interface RawPlan {
  /** Written at once after connecting. */
  head: Buffer | string;
  /** Written in order after `head`; a number is a pause in ms before the next piece. */
  then?: Array<Buffer | string | number>;
  /** Destroy the socket this many ms after the last write (0 = right after it). */
  abortAfterMs?: number;
  /** Half-close (FIN) after writing everything. */
  endAfterWrite?: boolean;
  /** Give up waiting for the server after this long (default 10 s). */
  waitMs?: number;
  /**
   * Stop once this many responses arrived (default 1) and the last one keeps the connection
   * open; a response with `Connection: close` is followed until the server closes.
   */
  responses?: number;
}

/** Parse as many complete HTTP/1.1 responses as `data` holds (Content-Length bodies only). */
export function parseResponses(data: Buffer): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const head = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '');
    if (!status) break;
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < end + 4 + length) break;
    const body = rest.subarray(end + 4, end + 4 + length).toString('utf8');
    let json: unknown;
    try {
      json = body === '' ? undefined : (JSON.parse(body) as unknown);
    } catch {
      json = undefined;
    }
    responses.push({ status: Number(status[1]), headers, body, json });
    rest = rest.subarray(end + 4 + length);
  }
  return { responses, rest };
}

export function exchange(port: number, plan: RawPlan): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    let aborted = false;
    let settled = false;
    const socket = net.connect(port, '127.0.0.1');
    const giveUp = setTimeout(() => {
      aborted = true;
      socket.destroy();
    }, plan.waitMs ?? 10_000);
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(giveUp);
      const { responses, rest } = parseResponses(Buffer.concat(chunks));
      resolve({ responses, closedAfterMs: Date.now() - started, serverClosed: !aborted, trailing: rest.toString('latin1') });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const { responses } = parseResponses(Buffer.concat(chunks));
      const last = responses.at(-1);
      if (responses.length >= (plan.responses ?? 1) && last?.headers.connection !== 'close') {
        aborted = true;
        socket.destroy();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', finish);
    socket.on('connect', () => {
      void (async () => {
        const write = (piece: Buffer | string): void => {
          if (!socket.destroyed) socket.write(piece);
        };
        write(plan.head);
        for (const piece of plan.then ?? []) {
          if (typeof piece === 'number')
            await stallFor(piece); // the plan's slow client
          else write(piece);
        }
        if (plan.endAfterWrite && !socket.destroyed) socket.end();
        if (plan.abortAfterMs !== undefined) {
          const abort = (): void => {
            aborted = true;
            socket.destroy();
          };
          if (plan.abortAfterMs === 0) abort();
          else setTimeout(abort, plan.abortAfterMs);
        }
      })();
    });
  });
}

/** A request head (request line and headers, ending with the blank line). */
export function head(method: string, target: string, headers: Record<string, string | number>): string {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The credential header each generation reads (docs/api.md "Authentication"). */
export function authFor(target: string, key: string): Record<string, string> {
  return target.startsWith('/v1') ? { Authorization: `Bearer ${key}` } : { 'X-API-Key': key };
}
