/**
 * Bulk jobs in embedded mode (docs/api.md "Bulk jobs"): N generated NDJSON items (BULK_TEST_ITEMS,
 * default 20,000; README "Tests" runs 1,000,000), chunks run in-process, results in input order
 * and equal to node:crypto's digests; bad data is an item error; limits, cancel, other accounts.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { waitFor } from '../helpers/wait.js';
import { checkResults, ndjsonBody, postNdjson } from './items.js';

const ITEMS = Number(process.env.BULK_TEST_ITEMS ?? 20_000);
/** A job of ITEMS items may take ITEMS / 10 ms to finish (`finished` below): the tests that run one get that and a minute more. */
const JOB_TEST_TIMEOUT_MS = 60_000 + Math.max(60_000, ITEMS / 10);
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ env: { BULK_CHUNK_ITEMS: '1000', BULK_CONCURRENCY: '2', URL_FETCH_ALLOW_LOOPBACK: 'true' } });
  key = server.keys.production;
});
afterAll(() => server.close());

const auth = (): Record<string, string> => ({ 'x-api-key': key });

async function finished(id: string, timeoutMs = 60_000, apiKey = key): Promise<any> {
  return waitFor(
    async () => {
      const { body } = await getJson(`${server.url}/v2/bulk/${id}`, { 'x-api-key': apiKey });
      return body.status === 'completed' || body.status === 'cancelled' ? body : undefined;
    },
    { timeoutMs, intervalMs: 100, what: `bulk job ${id} to finish` },
  );
}

describe('POST /v2/bulk with NDJSON items (embedded)', () => {
  it(
    `hashes ${ITEMS} items: every result line in input order, equal to node:crypto's digest`,
    async () => {
      const started = performance.now();
      const created = await postNdjson(server.url, key, ndjsonBody(ITEMS));
      expect(created.status).toBe(202);
      expect(created.body).toMatchObject({
        success: true,
        source: 'items',
        items: { total: ITEMS },
        chunks: { total: Math.ceil(ITEMS / 1000) },
      });
      const done = await finished(created.body.id, Math.max(60_000, ITEMS / 10));
      const elapsed = performance.now() - started;
      const failed = Math.floor((ITEMS + 1) / 1000);
      expect(done).toMatchObject({
        status: 'completed',
        items: { total: ITEMS, done: ITEMS - failed, failed, pending: 0 },
        eta_seconds: null,
      });
      expect(done.summary).toMatchObject({ items: ITEMS, failed });
      const res = await fetch(`${server.url}${done.results_url}`, { headers: auth() });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const checked = await checkResults(Readable.fromWeb(res.body as never), ITEMS);
      expect(checked.failed).toBe(failed);
      console.log(
        `bulk embedded: ${ITEMS} items in ${Math.round(elapsed)} ms (${Math.round(ITEMS / (elapsed / 1000))} items/s, submit to completed)`,
      );
    },
    JOB_TEST_TIMEOUT_MS,
  );

  it('answers gzip when the caller accepts it', async () => {
    const created = await postNdjson(server.url, key, ndjsonBody(2500));
    await finished(created.body.id);
    const res = await fetch(`${server.url}/v2/bulk/${created.body.id}/results`, { headers: { ...auth(), 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch inflates it: the lines are the same.
    expect((await checkResults(Readable.fromWeb(res.body as never), 2500)).lines).toBe(2500);
  });

  it('answers a Range from the identity bytes (206, Content-Range, never gzip) and 416 past the end', async () => {
    const created = await postNdjson(server.url, key, ndjsonBody(2500));
    await finished(created.body.id);
    const url = `${server.url}/v2/bulk/${created.body.id}/results`;
    const wholeRes = await fetch(url, { headers: { ...auth(), 'accept-encoding': 'identity' } });
    expect(wholeRes.headers.get('accept-ranges')).toBe('bytes');
    const whole = Buffer.from(await wholeRes.arrayBuffer());
    // The whole answer is checked against node:crypto; the ranges are checked against it.
    expect((await checkResults(Readable.from([whole]), 2500)).lines).toBe(2500);
    const total = whole.length;
    const third = Math.floor(total / 3);
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      // Across the three result parts (chunks of 1,000 items).
      [`bytes=${third - 100}-${2 * third + 100}`, third - 100, 2 * third + 100],
      [`bytes=${total - 10}-`, total - 10, total - 1],
      ['bytes=-50', total - 50, total - 1],
      [`bytes=100-${total + 1000}`, 100, total - 1],
      [`bytes=${total - 1}-${total - 1}`, total - 1, total - 1],
    ];
    for (const [range, first, last] of cases) {
      const res = await fetch(url, { headers: { ...auth(), range, 'accept-encoding': 'gzip' } });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-encoding'), range).toBeNull();
      expect(res.headers.get('content-range'), range).toBe(`bytes ${first}-${last}/${total}`);
      expect(res.headers.get('content-length'), range).toBe(String(last - first + 1));
      expect(Buffer.from(await res.arrayBuffer()).equals(whole.subarray(first, last + 1)), range).toBe(true);
    }
    for (const range of [`bytes=${total}-`, `bytes=${total + 5}-${total + 10}`, 'bytes=-0']) {
      const res = await fetch(url, { headers: { ...auth(), range } });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('content-range'), range).toBe(`bytes */${total}`);
      expect((await res.json()).error.code).toBe('RANGE_NOT_SATISFIABLE');
    }
    // Several ranges, another unit, a malformed value, an If-Range: the whole 200.
    const variants: Array<Record<string, string>> = [
      { range: 'bytes=0-1,5-6' },
      { range: 'items=0-5' },
      { range: 'bytes=9-3' },
      { range: 'bytes=0-9', 'if-range': '"x"' },
    ];
    for (const headers of variants) {
      const res = await fetch(url, { headers: { ...auth(), ...headers, 'accept-encoding': 'identity' } });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(whole)).toBe(true);
    }
  });

  it('refuses a line that is not an item, naming it, and keeps nothing', async () => {
    const body = `${JSON.stringify({ id: 'a', data: 'x' })}\n{"id": 5, "data": "y"}\n`;
    const res = await postNdjson(server.url, key, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', details: 'line 2: id must be a non-empty string' });
    const empty = await postNdjson(server.url, key, '\n');
    expect(empty.status).toBe(400);
  });

  it('holds a plan to its item limit (free: 10,000) and to one job at a time', async () => {
    const free = await server.newKey({ plan: 'free' });
    const over = await postNdjson(server.url, free.secret, ndjsonBody(10_001));
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    // A job still receiving its body holds the account's one slot.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = Readable.from(
      (async function* () {
        yield `${JSON.stringify({ id: 'first', data: 'abc' })}\n`;
        await held;
      })(),
    );
    const first = postNdjson(server.url, free.secret, slow);
    await waitFor(
      async () => {
        const second = await postNdjson(server.url, free.secret, '{"id":"b","data":"x"}\n');
        return second.status === 429 && /bulk job/.test(String(second.body.error.details));
      },
      { what: 'the second job to be refused', intervalMs: 200 },
    );
    release();
    const accepted = await first;
    expect(accepted.status).toBe(202);
    const done = await finished(accepted.body.id, 60_000, free.secret);
    const res = await fetch(`${server.url}/v2/bulk/${accepted.body.id}/results`, { headers: { 'x-api-key': free.secret } });
    expect(JSON.parse((await res.text()).trim())).toEqual({
      id: 'first',
      hash: '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7',
      bytes: 3,
    });
    expect(done.status).toBe('completed');
  });

  it(
    'cancels: chunks not yet run are skipped, the results hold whole chunks in input order',
    async () => {
      const created = await postNdjson(server.url, key, ndjsonBody(ITEMS));
      const res = await fetch(`${server.url}/v2/bulk/${created.body.id}`, { method: 'DELETE', headers: auth() });
      expect(res.status).toBe(200);
      const cancelled = await res.json();
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.chunks.done).toBeLessThan(cancelled.chunks.total);
      const results = await fetch(`${server.url}/v2/bulk/${created.body.id}/results`, { headers: auth() });
      expect(results.status).toBe(200);
      const lines = (await results.text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string });
      // Whole chunks only, each in order.
      expect(lines.length % 1000).toBe(0);
      for (let i = 1; i < lines.length; i++) {
        if (i % 1000 !== 0) expect(Number(lines[i]!.id.slice(1))).toBe(Number(lines[i - 1]!.id.slice(1)) + 1);
      }
    },
    JOB_TEST_TIMEOUT_MS,
  );

  it("reports another account's job as absent, and refuses results before the end", async () => {
    const created = await postNdjson(server.url, key, ndjsonBody(10));
    const other = await server.newKey({ plan: 'pro' });
    expect((await getJson(`${server.url}/v2/bulk/${created.body.id}`, { 'x-api-key': other.secret })).status).toBe(404);
    expect((await getJson(`${server.url}/v2/bulk/nope`, auth())).status).toBe(404);
    await finished(created.body.id);
  });

  it('refuses other content types and unknown JSON sources', async () => {
    const res = await fetch(`${server.url}/v2/bulk`, { method: 'POST', headers: { ...auth(), 'content-type': 'text/plain' }, body: 'x' });
    expect(res.status).toBe(415);
    const json = await fetch(`${server.url}/v2/bulk`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'ftp' }),
    });
    expect(json.status).toBe(400);
  });

  it('fetches a list of URLs, at most 2 at once per host; a failing URL is an item error; a private address is refused', async () => {
    let open = 0;
    let peak = 0;
    const web = http.createServer((req, res) => {
      open++;
      peak = Math.max(peak, open);
      const n = Number(req.url?.slice(1));
      // Held briefly so that fetches overlap and the per-host bound is what limits them.
      setTimeout(() => {
        open--;
        if (Number.isNaN(n)) res.writeHead(404).end('no');
        else res.end(`body ${n}`);
      }, 20);
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    try {
      const urls = [...Array.from({ length: 30 }, (_, n) => `${base}/${n}`), `${base}/missing`];
      const created = await fetch(`${server.url}/v2/bulk`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ source: 'urls', urls }),
      });
      expect(created.status).toBe(202);
      const { id } = await created.json();
      const done = await finished(id);
      expect(done).toMatchObject({ source: 'urls', items: { total: 31, done: 30, failed: 1 } });
      const lines = (await (await fetch(`${server.url}/v2/bulk/${id}/results`, { headers: auth() })).text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; hash?: string; error?: { code: string } });
      expect(lines.map((l) => l.id)).toEqual(urls);
      lines.slice(0, 30).forEach((line, n) => expect(line.hash).toBe(createHash('sha224').update(`body ${n}`).digest('hex')));
      expect(lines[30]!.error?.code).toBe('URL_FETCH_FAILED');
      expect(peak).toBe(2);
    } finally {
      web.close();
    }
    const refused = await fetch(`${server.url}/v2/bulk`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'urls', urls: ['http://10.0.0.1/x'] }),
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe('URL_NOT_ALLOWED');
  });
});
