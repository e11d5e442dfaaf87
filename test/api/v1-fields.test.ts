/**
 * One test per field table of docs/api.md "Resources" that a v1 operation answers
 * with: every v1 operation returns exactly the table's fields, with the table's types (nested
 * objects and array items included), and second-precision timestamps.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson } from '../helpers/api-server.js';
import { ONE_NODE_CLUSTER, startTarget, TARGETS, type Target } from '../helpers/targets.js';
import { sha224Hex } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';
import { listenOnFreePort } from '../helpers/ports.js';

const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

type Shape = 'string' | 'boolean' | 'integer' | 'number' | 'timestamp' | readonly [Shape] | { readonly [field: string]: Shape };

/** Exactly these fields (no more, no fewer), each of its type, recursively. */
function expectShape(value: unknown, shape: Shape, at = 'body'): void {
  if (Array.isArray(shape)) {
    expect(Array.isArray(value), `${at} is an array`).toBe(true);
    (value as unknown[]).forEach((item, i) => expectShape(item, shape[0], `${at}[${i}]`));
    return;
  }
  if (typeof shape === 'object') {
    expect(typeof value === 'object' && value !== null && !Array.isArray(value), `${at} is an object`).toBe(true);
    expect(Object.keys(value as object).sort(), `fields of ${at}`).toEqual(Object.keys(shape).sort());
    for (const [field, inner] of Object.entries(shape)) expectShape((value as Record<string, unknown>)[field], inner, `${at}.${field}`);
    return;
  }
  switch (shape) {
    case 'integer':
      expect(Number.isInteger(value), `${at} is an integer (got ${JSON.stringify(value)})`).toBe(true);
      break;
    case 'timestamp':
      expect(value, `${at} is a second-precision ISO 8601 UTC timestamp`).toMatch(ISO_SECONDS);
      break;
    default:
      expect(typeof value, `${at} is a ${shape}`).toBe(shape);
  }
}

const form = (bytes: Buffer | string, fields: Record<string, string> = {}): FormData => fileForm(bytes, { fields, filename: 'report.txt' });

async function postForm(url: string, body: FormData, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, body: await res.json() };
}

describe.each(TARGETS)('v1 field tables on %s', (target) => {
  let s: Target;
  let h: Record<string, string>;
  let origin: http.Server;
  let originUrl: string;
  const page = Buffer.from('<html>hello from the origin</html>\n');

  beforeAll(async () => {
    s = await startTarget(target, { URL_FETCH_ALLOW_LOOPBACK: 'true' }, ONE_NODE_CLUSTER);
    h = { authorization: `Bearer ${s.keys.production}` };
    origin = http.createServer((_req, res) => res.end(page));
    originUrl = `http://127.0.0.1:${await listenOnFreePort(origin)}/page.html`;
  });
  afterAll(async () => {
    await new Promise((resolve) => origin.close(resolve));
    await s.close();
  });

  it('Hash result, v1 Set A (POST /v1/hash)', async () => {
    const r = await postJson(`${s.url}/v1/hash`, { data: 'abc' }, h);
    expect(r.status).toBe(200);
    expectShape(r.body, { success: 'boolean', hash: 'string', algorithm: 'string', encoding: 'string', timestamp: 'timestamp' });
    expect(r.body).toMatchObject({ success: true, hash: sha224Hex('abc'), algorithm: 'sha224', encoding: 'hex' });
  });

  it('Verification result, v1 Set A (POST /v1/verify)', async () => {
    const r = await postJson(`${s.url}/v1/verify`, { data: 'abc', hash: sha224Hex('abc') }, h);
    expect(r.status).toBe(200);
    expectShape(r.body, { success: 'boolean', verified: 'boolean', algorithm: 'string', timestamp: 'timestamp' });
    expect(r.body).toMatchObject({ success: true, verified: true, algorithm: 'sha224' });
  });

  it('Verification result, v1 Set B, text (POST /v1/verify/text)', async () => {
    const r = await postJson(`${s.url}/v1/verify/text`, { text: 'abc', hash: sha224Hex('abc') }, h);
    expect(r.status).toBe(200);
    expectShape(r.body, { valid: 'boolean', expected: 'string', computed: 'string', timestamp: 'timestamp' });
    expect(r.body).toMatchObject({ valid: true, expected: sha224Hex('abc'), computed: sha224Hex('abc') });
  });

  it('Verification result, v1 Set B, file (POST /v1/verify/file)', async () => {
    const r = await postForm(`${s.url}/v1/verify/file`, form('file body', { hash: sha224Hex('file body') }), h);
    expect(r.status).toBe(200);
    expectShape(r.body, { valid: 'boolean', expected: 'string', computed: 'string', filename: 'string', timestamp: 'timestamp' });
    expect(r.body).toMatchObject({ valid: true, computed: sha224Hex('file body'), filename: 'report.txt' });
  });

  it('File hash result, v1 Set A (POST /v1/file/hash)', async () => {
    const r = await postForm(`${s.url}/v1/file/hash`, form('file body'), h);
    expect(r.status).toBe(200);
    expectShape(r.body, {
      success: 'boolean',
      hash: 'string',
      algorithm: 'string',
      encoding: 'string',
      fileName: 'string',
      fileSize: 'integer',
      timestamp: 'timestamp',
    });
    expect(r.body).toMatchObject({
      success: true,
      hash: sha224Hex('file body'),
      algorithm: 'sha224',
      encoding: 'hex',
      fileName: 'report.txt',
      fileSize: 9,
    });
  });

  it('File hash result, v1 Set B (POST /v1/hash/file)', async () => {
    const r = await postForm(`${s.url}/v1/hash/file`, form('file body'), h);
    expect(r.status).toBe(200);
    expectShape(r.body, { hash: 'string', filename: 'string', filesize: 'integer', timestamp: 'timestamp' });
    expect(r.body).toMatchObject({ hash: sha224Hex('file body'), filename: 'report.txt', filesize: 9 });
  });

  it('Text hash result, v1 Set B (POST /v1/hash/text)', async () => {
    const r = await postJson(`${s.url}/v1/hash/text`, { text: 'héllo' }, h);
    expect(r.status).toBe(200);
    expectShape(r.body, { hash: 'string', input_length: 'integer', timestamp: 'timestamp' });
    expect(r.body).toMatchObject({ hash: sha224Hex('héllo'), input_length: 6 });
  });

  it('URL hash result, v1 Set B (POST /v1/hash/url)', async () => {
    const r = await postJson(`${s.url}/v1/hash/url`, { url: originUrl }, h);
    expect(r.status).toBe(200);
    expectShape(r.body, { hash: 'string', url: 'string', content_length: 'integer', timestamp: 'timestamp' });
    expect(r.body).toMatchObject({ hash: sha224Hex(page), url: originUrl, content_length: page.length });
  });

  it('HMAC result, v1 Set A (POST /v1/hmac)', async () => {
    const r = await postJson(`${s.url}/v1/hmac`, { data: 'message', key: 'secret' }, h);
    expect(r.status).toBe(200);
    expectShape(r.body, { success: 'boolean', hmac: 'string', algorithm: 'string', encoding: 'string', timestamp: 'timestamp' });
    expect(r.body).toMatchObject({
      success: true,
      hmac: createHmac('sha224', 'secret').update('message').digest('hex'),
      algorithm: 'sha224',
      encoding: 'hex',
    });
  });

  it('Batch result, v1 Set B hash (POST /v1/batch/hash)', async () => {
    const r = await postJson(`${s.url}/v1/batch/hash`, { items: [{ id: 'a', text: 'abc' }, { text: 'xyz' }] }, h);
    expect(r.status).toBe(200);
    expectShape(r.body, { results: [{ id: 'string', hash: 'string', input_length: 'integer' }], count: 'integer', timestamp: 'timestamp' });
    expect(r.body.results).toEqual([
      { id: 'a', hash: sha224Hex('abc'), input_length: 3 },
      { id: '1', hash: sha224Hex('xyz'), input_length: 3 },
    ]);
    expect(r.body.count).toBe(2);
  });

  it('Batch result, v1 Set B verify (POST /v1/batch/verify)', async () => {
    const r = await postJson(
      `${s.url}/v1/batch/verify`,
      {
        items: [
          { id: 'a', text: 'abc', hash: sha224Hex('abc') },
          { text: 'xyz', hash: sha224Hex('abc') },
        ],
      },
      h,
    );
    expect(r.status).toBe(200);
    expectShape(r.body, {
      results: [{ id: 'string', valid: 'boolean', expected: 'string', computed: 'string' }],
      count: 'integer',
      timestamp: 'timestamp',
    });
    expect(r.body.results).toEqual([
      { id: 'a', valid: true, expected: sha224Hex('abc'), computed: sha224Hex('abc') },
      { id: '1', valid: false, expected: sha224Hex('abc'), computed: sha224Hex('xyz') },
    ]);
    expect(r.body.count).toBe(2);
  });

  it('Hash comparison result, v1 Set B (POST /v1/compare)', async () => {
    const r = await postJson(`${s.url}/v1/compare`, { hash1: sha224Hex('abc'), hash2: sha224Hex('abc').toUpperCase() }, h);
    expect(r.status).toBe(200);
    expectShape(r.body, { match: 'boolean', timestamp: 'timestamp' });
    expect(r.body.match).toBe(true);
  });

  it('Usage, v1 Set A (GET /v1/usage), for a limited and an unlimited plan', async () => {
    const shape = {
      success: 'boolean',
      account: {
        tier: 'string',
        quota: { daily: 'integer', used: 'integer', remaining: 'integer', resetTime: 'timestamp' },
        rateLimit: { requestsPerSecond: 'integer', maxFileSize: 'integer' },
      },
      timestamp: 'timestamp',
    } as const;
    const free = await s.newKey({ plan: 'free' });
    const limited = await getJson(`${s.url}/v1/usage`, { authorization: `Bearer ${free}` });
    expect(limited.status).toBe(200);
    expectShape(limited.body, shape);
    expect(limited.body.account).toEqual({
      tier: 'Free',
      // Reading usage is outside the quota it reports (docs/decisions.md "Plans, rate limits and quotas").
      quota: { daily: 1000, used: 0, remaining: 1000, resetTime: limited.body.account.quota.resetTime },
      rateLimit: { requestsPerSecond: 5, maxFileSize: 5 * 1024 * 1024 },
    });
    expect(limited.body.account.quota.resetTime).toMatch(/T00:00:00Z$/);

    const unlimited = await getJson(`${s.url}/v1/usage`, h);
    expectShape(unlimited.body, shape);
    expect(unlimited.body.account).toMatchObject({
      tier: 'Enterprise',
      quota: { daily: -1, remaining: -1 },
      rateLimit: { requestsPerSecond: -1, maxFileSize: 100 * 1024 * 1024 },
    });
  });

  it('Status, v1 Set B (GET /v1/status)', async () => {
    const free = await s.newKey({ plan: 'free' });
    const r = await getJson(`${s.url}/v1/status`, { authorization: `Bearer ${free}` });
    expect(r.status).toBe(200);
    expectShape(r.body, {
      status: 'string',
      version: 'string',
      rate_limit: { limit: 'number', remaining: 'number', reset: 'timestamp' },
      account: { plan: 'string', requests_today: 'number', requests_quota: 'number' },
      timestamp: 'timestamp',
    });
    expect(r.body).toMatchObject({
      status: 'operational',
      version: '1.0',
      rate_limit: { limit: 10, remaining: 9 },
      // The status read counts in its rate window, not in the day's requests.
      account: { plan: 'free', requests_today: 0, requests_quota: 1000 },
    });
    expect(r.body.rate_limit.reset).toMatch(/:00Z$/);
  });
});
