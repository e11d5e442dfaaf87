import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../shared/keys/api-keys.js';
import { getJson, postJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC as ABC } from '../helpers/digests.js';
import { waitFor } from '../helpers/wait.js';

describe('/v2 authentication and permissions', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const hash = (headers: Record<string, string>, query = '') => postJson(`${s.url}/v2/hash${query}`, { data: 'abc' }, headers);

  it('accepts X-API-Key, the api_key query parameter and Authorization: Bearer', async () => {
    for (const r of [
      await hash({ 'x-api-key': s.keys.production }),
      await hash({}, `?api_key=${s.keys.production}`),
      await hash({ authorization: `Bearer ${s.keys.production}` }),
    ]) {
      expect(r.status).toBe(200);
      expect(r.body.hash).toBe(ABC);
    }
  });

  it.each([
    ['no key', {}, ''],
    ['a malformed key', { 'x-api-key': 'not-a-key' }, ''],
    ['a well-formed unknown key', { 'x-api-key': 's224_' + 'A'.repeat(38) }, ''],
    ['a non-Bearer Authorization', { authorization: 'Basic abc' }, ''],
    ['conflicting credentials', { 'x-api-key': 'x' }, '?api_key=y'],
  ])('refuses %s with 401 UNAUTHORIZED', async (_name, headers, query) => {
    const r = await hash(headers, query);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' } });
  });

  it('refuses a key with a one-character change (checksum)', async () => {
    const k = s.keys.production;
    const flipped = k.slice(0, 10) + (k[10] === 'a' ? 'b' : 'a') + k.slice(11);
    expect((await hash({ 'x-api-key': flipped })).status).toBe(401);
  });

  it('refuses a revoked key, for good', async () => {
    const { secret, id } = await s.newKey({});
    expect((await hash({ 'x-api-key': secret })).status).toBe(200);
    await revokeApiKey(s.store, id);
    const r = await hash({ 'x-api-key': secret });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: 'This API key has been revoked', details: 'Create a new key in the dashboard' },
    });
    // v1's envelope says the same, its details as an object.
    const v1 = await postJson(`${s.url}/v1/hash/text`, { text: 'abc' }, { authorization: `Bearer ${secret}` });
    expect(v1.status).toBe(401);
    expect(v1.body).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'This API key has been revoked', details: { info: 'Create a new key in the dashboard' } },
    });
  });

  it('answers an expired key with 401 EXPIRED_KEY', async () => {
    const expiresAt = new Date(Date.now() + 400);
    const { secret, id } = await s.newKey({ expiresAt });
    expect((await hash({ 'x-api-key': secret })).status).toBe(200);
    // The event is the clock passing the expiry; the first request after it must be refused,
    // though the key's verdict was cached a moment ago.
    await waitFor(() => Date.now() > expiresAt.getTime(), { what: 'the expiry time' });
    const r = await hash({ 'x-api-key': secret });
    expect(r.status).toBe(401);
    const details = 'Create a new key in the dashboard, or roll a key before it expires';
    expect(r.body.error).toEqual({ code: 'EXPIRED_KEY', message: 'API key has expired', details });
    const v1 = await postJson(`${s.url}/v1/hash/text`, { text: 'abc' }, { authorization: `Bearer ${secret}` });
    expect(v1.status).toBe(401);
    expect(v1.body).toEqual({ error: { code: 'EXPIRED_KEY', message: 'API key has expired', details: { info: details } } });
    expect(id).toBeTruthy();
  });

  it('a read-only key may read jobs but not hash (403 FORBIDDEN)', async () => {
    const r = await hash({ 'x-api-key': s.keys.read_only });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('FORBIDDEN');
    const job = await getJson(`${s.url}/v2/jobs/unknown`, { 'x-api-key': s.keys.read_only });
    expect(job.status).toBe(404);
  });

  it('a development key hashes like a production key', async () => {
    expect((await hash({ 'x-api-key': s.keys.development })).body.hash).toBe(ABC);
  });

  describe('client keys', () => {
    it('work from an allowed Origin, with CORS for that origin only', async () => {
      for (const origin of ['https://app.example.com', 'https://deep.sub.example.org']) {
        const r = await hash({ 'x-api-key': s.keys.client, origin });
        expect(r.status).toBe(200);
        expect(r.headers.get('access-control-allow-origin')).toBe(origin);
      }
    });

    it('are refused (403) from another origin or with no Origin, without CORS headers', async () => {
      for (const headers of [{ origin: 'https://evil.example.net' }, { origin: 'https://example.org' }, {}] as Array<
        Record<string, string>
      >) {
        const r = await hash({ 'x-api-key': s.keys.client, ...headers });
        expect(r.status).toBe(403);
        expect(r.body.error.code).toBe('FORBIDDEN');
        expect(r.headers.get('access-control-allow-origin')).toBeNull();
      }
    });

    it('may hash and verify but not read jobs or use batch uploads', async () => {
      const origin = 'https://app.example.com';
      const v = await postJson(`${s.url}/v2/verify`, { data: 'abc', hash: ABC }, { 'x-api-key': s.keys.client, origin });
      expect(v.body.valid).toBe(true);
      const jobs = await getJson(`${s.url}/v2/jobs/x`, { 'x-api-key': s.keys.client, origin });
      expect(jobs.status).toBe(403);
    });

    it('preflight answers allowed origins and no others', async () => {
      const ok = await fetch(`${s.url}/v2/hash`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      });
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(ok.headers.get('access-control-allow-headers')).toContain('X-API-Key');
      const no = await fetch(`${s.url}/v2/hash`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST' },
      });
      expect(no.headers.get('access-control-allow-origin')).toBeNull();
    });

    it("a refused credential's 401 is readable by the page that sent it (a revoked client key can be reported)", async () => {
      const r = await hash({ 'x-api-key': 's224_' + 'x'.repeat(38), origin: 'https://app.example.com' });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('UNAUTHORIZED');
      expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(r.headers.get('access-control-allow-credentials')).toBeNull();
      const bad = await hash({ 'x-api-key': 's224_' + 'x'.repeat(38), origin: 'https://app.example.com\\@evil.example' });
      expect(bad.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('secret keys get no CORS headers, so a page cannot read their responses', async () => {
      const r = await hash({ 'x-api-key': s.keys.production, origin: 'https://app.example.com' });
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('request ids and logs', () => {
    it('echoes a safe X-Request-Id and replaces an unsafe one', async () => {
      const safe = await hash({ 'x-api-key': s.keys.production, 'x-request-id': 'abc-123' });
      expect(safe.headers.get('x-request-id')).toBe('abc-123');
      const unsafe = await hash({ 'x-api-key': s.keys.production, 'x-request-id': 'a b<script>' });
      expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('logs one line per request, and never a key', async () => {
      await hash({ 'x-api-key': s.keys.production, 'x-request-id': 'log-probe-1' });
      await hash({}, `?api_key=${s.keys.production}&x=1`);
      await hash({ authorization: `Bearer ${s.keys.development}` });
      const lines = s
        .logs()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const probe = lines.filter((l) => l.requestId === 'log-probe-1');
      expect(probe).toHaveLength(1);
      expect(probe[0]).toMatchObject({ method: 'POST', path: '/v2/hash', route: '/v2/hash', status: 200 });
      expect(typeof probe[0].durationMs).toBe('number');
      const text = s.logs();
      for (const key of Object.values(s.keys)) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(key.slice(5, 25));
      }
      expect(text).not.toContain('api_key');
    });
  });
});
