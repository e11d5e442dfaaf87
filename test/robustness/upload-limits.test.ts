/**
 * A 413 that clients can read: after refusing an oversized upload the service reads and discards
 * the rest of the body, up to UPLOAD_DRAIN_MAX_BYTES, so clients that send their whole body before
 * reading (Node's fetch) receive 413 FILE_TOO_LARGE instead of EPIPE; past the bound it closes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { exchange, head } from './raw-client.js';
import { fileForm } from '../helpers/multipart.js';

const MiB = 1024 * 1024;

describe('413 FILE_TOO_LARGE reaches clients that send everything first', () => {
  let s: TestServer;
  let free: string;
  beforeAll(async () => {
    s = await startTestServer();
    free = (await s.newKey({ plan: 'free' })).secret;
  });
  afterAll(() => s.close());

  it("a free-plan /v2/file of 11 MiB sent with Node's fetch gets 413 FILE_TOO_LARGE, not EPIPE", async () => {
    const f = fileForm(new Uint8Array(11 * MiB), { filename: 'big.bin' });
    const res = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: { 'x-api-key': free }, body: f });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      success: false,
      error: {
        code: 'FILE_TOO_LARGE',
        message: 'File exceeds the maximum size',
        details: `maximum size is ${10 * MiB} bytes`,
        max_bytes: 10 * MiB,
      },
    });
  });

  it('a chunked /v2/stream body over the limit, sent with fetch, gets the 413 too', async () => {
    let sent = 0;
    const body = new ReadableStream({
      pull(c) {
        if (sent >= 11 * MiB) return c.close();
        sent += MiB;
        c.enqueue(new Uint8Array(MiB));
      },
    });
    const res = await fetch(`${s.url}/v2/stream`, {
      method: 'POST',
      headers: { 'x-api-key': free, 'content-type': 'application/octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('FILE_TOO_LARGE');
  });

  it('the connection stays usable after a drained refusal (keep-alive)', async () => {
    const body = Buffer.alloc(11 * MiB, 1);
    const x = await exchange(Number(new URL(s.url).port), {
      head: head('POST', '/v2/stream', { 'X-API-Key': free, 'Content-Type': 'application/octet-stream', 'Content-Length': body.length }),
      then: [
        body,
        head('POST', '/v2/hash', { 'X-API-Key': free, 'Content-Type': 'application/json', 'Content-Length': 14 }) + '{"data":"abc"}',
      ],
      responses: 2,
    });
    expect(x.responses.map((r) => r.status)).toEqual([413, 200]);
  });
});

describe('past UPLOAD_DRAIN_MAX_BYTES the connection is closed', () => {
  let s: TestServer;
  let port: number;
  beforeAll(async () => {
    s = await startTestServer({ env: { MAX_STREAM_BYTES: String(MiB), UPLOAD_DRAIN_MAX_BYTES: String(MiB) } });
    port = Number(new URL(s.url).port);
  });
  afterAll(() => s.close());

  it('an endless chunked body: the 413 is sent, then the connection closed after about the bound', async () => {
    const chunk = `${(64 * 1024).toString(16)}\r\n${'a'.repeat(64 * 1024)}\r\n`;
    const x = await exchange(port, {
      head: head('POST', '/v2/stream', {
        'X-API-Key': s.keys.production,
        'Content-Type': 'application/octet-stream',
        'Transfer-Encoding': 'chunked',
      }),
      // 16 MiB offered; the server stops reading after 1 MiB accepted + 1 MiB discarded.
      then: Array.from({ length: 256 }, () => chunk),
      responses: 2,
    });
    expect(x.serverClosed).toBe(true);
    expect(x.responses[0]?.status).toBe(413);
    expect((x.responses[0]?.json as { error: { code: string } }).error.code).toBe('FILE_TOO_LARGE');
  });

  it('a declared Content-Length past limit + bound: 413 with Connection: close, without reading', async () => {
    const x = await exchange(port, {
      head: head('POST', '/v2/stream', {
        'X-API-Key': s.keys.production,
        'Content-Type': 'application/octet-stream',
        'Content-Length': 100 * MiB,
      }),
      then: ['abc'],
      responses: 2,
    });
    expect(x.responses[0]?.status).toBe(413);
    expect(x.responses[0]?.headers.connection).toBe('close');
    expect(x.serverClosed).toBe(true);
  });
});
