/**
 * Client keys are public by design (they live in browser code), so they get only what a browser
 * page needs: hashing and verifying data they send, with uploads capped at
 * CLIENT_KEY_MAX_UPLOAD_BYTES. The whole permission table is in docs/limits.md; this file holds
 * every row of it that differs from a secret key's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { sha224Hex } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';

const CAP = 4096;
const ORIGIN = 'https://app.example.com';

describe('what a client key may do', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { CLIENT_KEY_MAX_UPLOAD_BYTES: String(CAP) } });
  });
  afterAll(() => s.close());

  const client = () => ({ 'x-api-key': s.keys.client, origin: ORIGIN });
  const file = (bytes: Buffer) => fileForm(bytes);
  const forbidden = (operation: string) => ({
    success: false,
    error: {
      code: 'FORBIDDEN',
      message: 'API key lacks permission for this request',
      details: `client keys may not ${operation}; use a secret key from a server`,
    },
  });

  it('hashes and verifies data it sends', async () => {
    const hash = await fetch(`${s.url}/v2/hash`, { method: 'POST', headers: client(), body: '{"data":"abc"}' });
    expect((await hash.json()).hash).toBe(sha224Hex('abc'));
    const verify = await fetch(`${s.url}/v2/verify`, {
      method: 'POST',
      headers: client(),
      body: JSON.stringify({ data: 'abc', hash: sha224Hex('abc') }),
    });
    expect((await verify.json()).valid).toBe(true);
  });

  it('uploads up to CLIENT_KEY_MAX_UPLOAD_BYTES, and no more (413 FILE_TOO_LARGE)', async () => {
    const exact = Buffer.alloc(CAP, 1);
    const ok = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: client(), body: file(exact) });
    expect(ok.status).toBe(200);
    expect((await ok.json()).hash).toBe(sha224Hex(exact));
    const over = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: client(), body: file(Buffer.alloc(CAP + 1, 1)) });
    expect(over.status).toBe(413);
    expect((await over.json()).error).toMatchObject({ code: 'FILE_TOO_LARGE', details: `maximum size is ${CAP} bytes` });
    const stream = await fetch(`${s.url}/v2/stream`, {
      method: 'POST',
      headers: { ...client(), 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(CAP + 1),
    });
    expect(stream.status).toBe(413);
    // A secret key on the same account keeps the plan's limit.
    const secret = await fetch(`${s.url}/v2/file`, {
      method: 'POST',
      headers: { 'x-api-key': s.keys.production },
      body: file(Buffer.alloc(CAP + 1, 1)),
    });
    expect(secret.status).toBe(200);
  });

  it.each([
    ['/v2/batch?async=true', 'application/json', JSON.stringify({ items: [{ id: 'a', data: 'x' }] })],
    ['/v2/stream?async=true', 'application/octet-stream', 'abc'],
  ])('may not start async jobs: %s is 403', async (path, type, body) => {
    const res = await fetch(`${s.url}${path}`, { method: 'POST', headers: { ...client(), 'content-type': type }, body });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(forbidden('start async jobs'));
  });

  it('may not start an async file job either, and keeps nothing', async () => {
    const res = await fetch(`${s.url}/v2/file?async=true`, { method: 'POST', headers: client(), body: file(Buffer.from('abc')) });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(forbidden('start async jobs'));
  });

  it('may not read jobs (403)', async () => {
    const res = await fetch(`${s.url}/v2/jobs/00000000-0000-0000-0000-000000000000`, { headers: client() });
    expect(res.status).toBe(403);
    expect((await res.json()).error.details).toBe('this credential lacks the jobs permission');
  });

  it('may not hash URLs (403), on v1 with its bearer header', async () => {
    const res = await fetch(`${s.url}/v1/hash/url`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.keys.client}`, origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/' }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.details.info).toBe('client keys may not hash URLs; use a secret key from a server');
  });
});
