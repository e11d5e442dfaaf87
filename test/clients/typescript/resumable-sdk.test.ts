/**
 * `client.uploadResumable` against the embedded server: bytes and a Blob in 1 MiB PATCHes end with
 * node:crypto's digest and progress at the server's offsets; an upload aborted half-way continues
 * from the server's offset given its URL (only the rest is sent); a PATCH answered 423 and one whose
 * connection is destroyed are retried; a wrong `expect` throws HASH_MISMATCH.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sha224dClient } from '../../../api/clients/typescript/src/node.js';
import { sha224Hex } from '../../helpers/digests.js';
import { listenOnFreePort } from '../../helpers/ports.js';
import { startEmbedded, type EmbeddedServer } from './helpers.js';

const MiB = 1024 * 1024;
let server: EmbeddedServer;

beforeAll(async () => {
  server = await startEmbedded();
});
afterAll(async () => {
  await server.stop();
});

const fastRetries = { maxRetries: 4, baseDelayMs: 10, maxDelayMs: 50 };

/** Forwards to the server; the first PATCH gets `first` (423, or its connection destroyed) instead. */
async function faultyProxy(first: 'locked' | 'reset'): Promise<{ url: string; faults: () => number; close: () => Promise<void> }> {
  const upstream = new URL(server.url);
  let faults = 0;
  const proxy = http.createServer((req, res) => {
    if (req.method === 'PATCH' && faults === 0) {
      faults += 1;
      req.resume();
      if (first === 'reset') res.socket?.destroy();
      else res.writeHead(423, { 'Tus-Resumable': '1.0.0', 'Retry-After': '0' }).end();
      return;
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  const port = await listenOnFreePort(proxy);
  return {
    url: `http://127.0.0.1:${port}`,
    faults: () => faults,
    close: () =>
      new Promise((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

describe('client.uploadResumable', () => {
  it('bytes and a Blob: the digest is node:crypto’s, progress follows the server offset', async () => {
    const client = new Sha224dClient({ apiKey: server.key, baseUrl: server.url });
    const data = randomBytes(3 * MiB + 5);
    const seen: number[] = [];
    const up = await client.uploadResumable(data, { chunkBytes: MiB, onProgress: ({ sent }) => seen.push(sent) });
    expect(seen).toEqual([0, MiB, 2 * MiB, 3 * MiB, 3 * MiB + 5]);
    expect(up).toMatchObject({ resumedFrom: 0, bytesSent: data.length, jobUrl: `/v2/jobs/${up.jobId}` });
    expect(up.result).toMatchObject({ hash: sha224Hex(data), status: 'completed', size: data.length });
    const blob = await client.uploadResumable(new Blob([data]), { chunkBytes: MiB, expect: sha224Hex(data).toUpperCase() });
    expect(blob.result).toMatchObject({ hash: sha224Hex(data) });
  });

  it('aborted half-way, then given its URL: continues from the server offset and sends only the rest', async () => {
    const client = new Sha224dClient({ apiKey: server.key, baseUrl: server.url });
    const data = randomBytes(8 * MiB);
    const controller = new AbortController();
    let url: string | undefined;
    let stoppedAt = 0;
    await expect(
      client.uploadResumable(data, {
        chunkBytes: MiB,
        signal: controller.signal,
        onUploadUrl: (u) => (url = u),
        onProgress: ({ sent }) => {
          if (sent >= 4 * MiB && stoppedAt === 0) {
            stoppedAt = sent;
            controller.abort();
          }
        },
      }),
    ).rejects.toThrow();
    expect(stoppedAt).toBe(4 * MiB);
    const up = await client.uploadResumable(data, { chunkBytes: MiB, uploadUrl: url });
    expect(up).toMatchObject({ uploadUrl: url, resumedFrom: stoppedAt, bytesSent: data.length - stoppedAt });
    expect(up.result).toMatchObject({ hash: sha224Hex(data) });
    // A finished upload's URL names its job (HEAD): given again, nothing is sent.
    const again = await client.uploadResumable(data, { uploadUrl: url });
    expect(again).toMatchObject({ jobId: up.jobId, bytesSent: 0 });
  });

  for (const fault of ['locked', 'reset'] as const) {
    it(`a PATCH ${fault === 'locked' ? 'answered 423' : 'whose connection is destroyed'} is retried`, async () => {
      const proxy = await faultyProxy(fault);
      try {
        const client = new Sha224dClient({ apiKey: server.key, baseUrl: proxy.url, retry: fastRetries });
        const data = randomBytes(2 * MiB);
        // Polled: this proxy forwards plain requests only, not socket.io's upgrade.
        const up = await client.uploadResumable(data, { chunkBytes: MiB, waitVia: 'poll' });
        expect(proxy.faults()).toBe(1);
        expect(up.result).toMatchObject({ hash: sha224Hex(data) });
      } finally {
        await proxy.close();
      }
    });
  }

  it('a wrong expect throws HASH_MISMATCH', async () => {
    const client = new Sha224dClient({ apiKey: server.key, baseUrl: server.url });
    await expect(client.uploadResumable(randomBytes(MiB), { expect: 'ab'.repeat(28) })).rejects.toMatchObject({ code: 'HASH_MISMATCH' });
  });
});
