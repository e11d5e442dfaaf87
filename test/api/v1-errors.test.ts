/**
 * v1 errors (docs/api.md "v1 errors"): {error:{code, message,
 * details:{…}}} with the codes of v2; 401 without a key, 403 without the permission, JSON 404 for
 * unknown endpoints, 429 over a limit, and each set counted against its own rate table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson } from '../helpers/api-server.js';
import { ONE_NODE_CLUSTER, startTarget, TARGETS, type Target } from '../helpers/targets.js';
import { SHA224_ABC as ABC } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';
import { waitFor } from '../helpers/wait.js';

/** Every v1 operation with a body it accepts (multipart ones with a small file). */
const OPERATIONS: Array<{ method: 'GET' | 'POST'; path: string; permission: 'hash' | 'verify' | 'read'; body?: () => BodyInit }> = [
  { method: 'POST', path: '/v1/hash', permission: 'hash', body: () => JSON.stringify({ data: 'abc' }) },
  { method: 'POST', path: '/v1/verify', permission: 'verify', body: () => JSON.stringify({ data: 'abc', hash: ABC }) },
  { method: 'POST', path: '/v1/file/hash', permission: 'hash', body: () => abcForm() },
  { method: 'POST', path: '/v1/hmac', permission: 'hash', body: () => JSON.stringify({ data: 'abc', key: 'k' }) },
  { method: 'GET', path: '/v1/usage', permission: 'read' },
  { method: 'POST', path: '/v1/hash/text', permission: 'hash', body: () => JSON.stringify({ text: 'abc' }) },
  { method: 'POST', path: '/v1/hash/file', permission: 'hash', body: () => abcForm() },
  { method: 'POST', path: '/v1/hash/url', permission: 'hash', body: () => JSON.stringify({ url: 'https://example.invalid/' }) },
  { method: 'POST', path: '/v1/verify/text', permission: 'verify', body: () => JSON.stringify({ text: 'abc', hash: ABC }) },
  { method: 'POST', path: '/v1/verify/file', permission: 'verify', body: () => abcForm({ hash: ABC }) },
  { method: 'POST', path: '/v1/batch/hash', permission: 'hash', body: () => JSON.stringify({ items: [{ text: 'abc' }] }) },
  { method: 'POST', path: '/v1/batch/verify', permission: 'verify', body: () => JSON.stringify({ items: [{ text: 'abc', hash: ABC }] }) },
  { method: 'POST', path: '/v1/compare', permission: 'verify', body: () => JSON.stringify({ hash1: ABC, hash2: ABC }) },
  { method: 'GET', path: '/v1/status', permission: 'read' },
];

const abcForm = (fields: Record<string, string> = {}): FormData => fileForm('abc', { fields, filename: 'a.txt' });

describe.each(TARGETS)('/v1 errors, authentication and limits on %s', (target) => {
  let s: Target;
  beforeAll(async () => {
    s = await startTarget(target, {}, ONE_NODE_CLUSTER);
  });
  afterAll(() => s.close());

  async function call(op: (typeof OPERATIONS)[number], headers: Record<string, string>, query = '') {
    const body = op.body?.();
    const res = await fetch(`${s.url}${op.path}${query}`, {
      method: op.method,
      headers: typeof body === 'string' ? { ...headers, 'content-type': 'application/json' } : headers,
      body,
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  it.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: 401 UNAUTHORIZED in the v1 body without a key',
    async (_name, op) => {
      const r = await call(op, {});
      expect(r.status).toBe(401);
      expect(r.body).toEqual({
        error: { code: 'UNAUTHORIZED', message: 'Invalid or missing API key', details: { info: 'no API key presented' } },
      });
    },
  );

  it.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: the key types its permission allows',
    async (_name, op) => {
      const origin = { origin: 'https://app.example.com' };
      const readOnly = await call(op, { authorization: `Bearer ${s.keys.read_only}` });
      const client = await call(op, { authorization: `Bearer ${s.keys.client}`, ...origin });
      const production = await call(op, { authorization: `Bearer ${s.keys.production}` });
      const forbidden = (permission: string) => ({
        error: {
          code: 'FORBIDDEN',
          message: 'API key lacks permission for this request',
          details: { info: `this credential lacks the ${permission} permission` },
        },
      });
      // The URL operation reaches the SSRF policy (example.invalid does not resolve): not a permission error.
      const passed = (r: { status: number }) => r.status === 200 || (op.path === '/v1/hash/url' && r.status === 502);
      expect(passed(production), JSON.stringify(production.body)).toBe(true);
      if (op.permission === 'read') {
        expect(passed(readOnly)).toBe(true);
        expect(client.status).toBe(403);
        expect(client.body).toEqual(forbidden('read'));
      } else {
        expect(readOnly.status).toBe(403);
        expect(readOnly.body).toEqual(forbidden(op.permission));
        if (op.path === '/v1/hash/url') {
          // Client keys are public: they may not make the service fetch URLs (docs/auth.md).
          expect(client.status).toBe(403);
          expect(client.body.error.details.info).toBe('client keys may not hash URLs; use a secret key from a server');
        } else {
          expect(passed(client), JSON.stringify(client.body)).toBe(true);
        }
      }
    },
  );

  it('accepts Authorization: Bearer and api_key; not X-API-Key (a v2 header)', async () => {
    const op = OPERATIONS[0]!;
    expect((await call(op, { authorization: `Bearer ${s.keys.production}` })).body.hash).toBe(ABC);
    expect((await call(op, {}, `?api_key=${s.keys.production}`)).body.hash).toBe(ABC);
    const header = await call(op, { 'x-api-key': s.keys.production });
    expect(header.status).toBe(401);
    // The refusal says which header v1 reads instead of claiming no key was presented.
    expect(header.body).toEqual({
      error: {
        code: 'UNAUTHORIZED',
        message: 'Invalid or missing API key',
        details: { info: 'X-API-Key is a /v2 header; /v1 takes Authorization: Bearer <key> (or ?api_key=<key>)' },
      },
    });
    const usage = await call(
      OPERATIONS.find((o) => o.path === '/v1/usage')!,
      { 'x-api-key': s.keys.production },
    );
    expect(usage.status).toBe(401);
    expect(usage.body.error.details.info).toMatch(/^X-API-Key is a \/v2 header/);
  });

  it('refuses an unknown key and a malformed Authorization header with 401', async () => {
    for (const authorization of ['Bearer s224_' + 'A'.repeat(38), 'Basic abc']) {
      const r = await call(OPERATIONS[0]!, { authorization });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('UNAUTHORIZED');
      expect(r.body.success).toBeUndefined();
    }
  });

  it('answers an expired key with 401 EXPIRED_KEY', async () => {
    const expiresAt = new Date(Date.now() + 300);
    const secret = await s.newKey({ expiresAt });
    // The event is the clock passing the expiry; the first request after it must be refused.
    await waitFor(() => Date.now() > expiresAt.getTime(), { what: 'the expiry time' });
    const r = await call(OPERATIONS[0]!, { authorization: `Bearer ${secret}` });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      error: {
        code: 'EXPIRED_KEY',
        message: 'API key has expired',
        details: { info: 'Create a new key in the dashboard, or roll a key before it expires' },
      },
    });
  });

  it('answers unknown endpoints with a JSON 404, with or without a key', async () => {
    for (const headers of [{}, { authorization: `Bearer ${s.keys.production}` }] as Array<Record<string, string>>) {
      for (const p of ['/v1/nope', '/v1/hash/sha256', '/v1/']) {
        const r = await getJson(`${s.url}${p}`, headers);
        expect(r.status).toBe(404);
        expect(r.headers.get('content-type')).toMatch(/application\/json/);
        expect(r.body).toEqual({
          error: { code: 'NOT_FOUND', message: 'Resource or endpoint does not exist', details: { info: `no endpoint GET ${p}` } },
        });
      }
    }
  });

  it('answers a known path with another method 405 with Allow', async () => {
    const r = await getJson(`${s.url}/v1/hash/text`, { authorization: `Bearer ${s.keys.production}` });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.body.error.code).toBe('METHOD_NOT_ALLOWED');
    const u = await postJson(`${s.url}/v1/usage`, {}, { authorization: `Bearer ${s.keys.production}` });
    expect(u.status).toBe(405);
    expect(u.headers.get('allow')).toBe('GET');
  });

  it('refuses malformed JSON with 400 in the v1 body', async () => {
    const r = await postJson(`${s.url}/v1/hash`, '{"data":', { authorization: `Bearer ${s.keys.production}` });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: { code: 'INVALID_INPUT', message: 'Request body is not valid JSON', details: { info: 'field: body' } },
    });
  });

  it('sends X-RateLimit-* headers (no v2 Retry-After header) on v1 responses', async () => {
    const r = await postJson(`${s.url}/v1/hash`, { data: 'a' }, { authorization: `Bearer ${s.keys.production}` });
    expect(r.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(r.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(r.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect(r.headers.get('x-ratelimit-retry-after')).toBeNull();
  });

  it("429 RATE_LIMIT_EXCEEDED over Set B's per-minute rate, while Set A (own per-second rate) still answers", async () => {
    // free plan, development key: Set A 1/s, Set B 2/min (docs/limits.md).
    const secret = await s.newKey({ plan: 'free', type: 'development' });
    const k = { authorization: `Bearer ${secret}` };
    let refused: Awaited<ReturnType<typeof postJson>> | undefined;
    for (let i = 0; i < 8 && !refused; i++) {
      const r = await postJson(`${s.url}/v1/hash/text`, { text: 'a' }, k);
      if (r.status === 429) refused = r;
    }
    expect(refused).toBeDefined();
    expect(refused!.body).toEqual({
      error: {
        code: 'RATE_LIMIT_EXCEEDED',
        message: 'Too many requests',
        details: { info: 'rate limit of 2 requests per minute exceeded', retry_after: refused!.body.error.details.retry_after },
      },
    });
    expect(refused!.body.error.details.retry_after).toBeGreaterThanOrEqual(1);
    expect(refused!.headers.get('retry-after')).toBe(String(refused!.body.error.details.retry_after));
    expect(refused!.headers.get('x-ratelimit-limit')).toBe('2');

    const setA = await postJson(`${s.url}/v1/hash`, { data: 'a' }, k);
    expect(setA.status).toBe(200);
    expect(setA.headers.get('x-ratelimit-limit')).toBe('1');
  });

  it("429 over Set A's per-second rate", async () => {
    const secret = await s.newKey({ plan: 'free', type: 'development' });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => postJson(`${s.url}/v1/hash`, { data: 'a' }, { authorization: `Bearer ${secret}` })),
    );
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(refused[0]!.body.error).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      details: { info: 'rate limit of 1 requests per second exceeded' },
    });
  });

  it('lists every v1 operation in /openapi.json with the v1 error body', async () => {
    const doc = (await getJson(`${s.url}/openapi.json`)).body;
    for (const op of OPERATIONS) expect(doc.paths[op.path]?.[op.method.toLowerCase()], op.path).toBeDefined();
    // Error answers are shared response components (api/openapi-kit.ts), each in the v1 envelope.
    const forbidden = doc.paths['/v1/hash'].post.responses['403'].$ref.split('/').pop();
    expect(doc.components.responses[forbidden].content['application/json'].schema.$ref).toBe('#/components/schemas/V1ErrorResponse');
    expect(doc.components.schemas.V1UsageResponse.properties.account).toBeDefined();
  });
});
