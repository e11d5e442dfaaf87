/**
 * Memory budgets relative to a bare reference measured in the same run, on the same node binary.
 *
 * Node 24's V8 lets garbage ArrayBuffers build up further before collecting them than Node 20's does:
 * a bare node:http server hashing a 1 GiB upload peaks near 90 MB on Node 20 and near 150 MB on
 * Node 24, with the same code, and its heap is larger for the same modules. A fixed megabyte budget
 * would then measure the runtime, not sha224d: the fixed figures hold on Node 20, where they were
 * set, and on newer runtimes the budget is the reference plus the overhead we allow ourselves
 * (docs/decisions.md, "Memory budgets").
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import path from 'node:path';
import { peakRssBytes, spawnNode } from './spawn.js';

const BARE_HASH_SERVER = path.join(import.meta.dirname, 'fixtures', 'bare-hash-server.mjs');

export interface GeneratedPost {
  status: number;
  body: string;
  /** Hex SHA-224 of the bytes sent. */
  sentDigest: string;
}

/** Streams `size` bytes of 1 MiB blocks, each varied by position, as one chunked POST, with backpressure. */
export async function postGenerated(url: string, size: number, headers: http.OutgoingHttpHeaders = {}): Promise<GeneratedPost> {
  const block = Buffer.alloc(1024 * 1024, 0x5a);
  const digest = createHash('sha224');
  const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers } });
  const answered = once(req, 'response') as Promise<[http.IncomingMessage]>;
  for (let sent = 0; sent < size; sent += block.length) {
    // A fresh buffer per block, as a sender reading a file has.
    const chunk = Buffer.from(block.subarray(0, Math.min(block.length, size - sent)));
    chunk.writeUInt32BE(sent / block.length, 0);
    digest.update(chunk);
    if (!req.write(chunk)) await once(req, 'drain');
  }
  req.end();
  const [res] = await answered;
  res.setEncoding('utf8');
  let body = '';
  for await (const part of res) body += part as string;
  return { status: res.statusCode ?? 0, body, sentDigest: digest.digest('hex') };
}

/** Peak RSS of a bare node:http server hashing `size` bytes from `postGenerated` while receiving them. */
export async function bareServerPeakRss(size: number): Promise<number> {
  const proc = spawnNode('bare-hash-server', [BARE_HASH_SERVER]);
  try {
    const url = (await proc.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    const { status, body, sentDigest } = await postGenerated(url, size);
    if (status !== 200 || body !== sentDigest) throw new Error(`bare reference answered ${status} ${body}`);
    return peakRssBytes(proc.pid);
  } finally {
    await proc.stop();
  }
}

/** `fixed` on Node 20; the reference plus `overhead` on newer runtimes. */
export function memoryBudget(
  fixed: number,
  reference: number,
  overhead: number,
  nodeMajor = Number(process.versions.node.split('.')[0]),
): number {
  return nodeMajor <= 20 ? fixed : reference + overhead;
}
