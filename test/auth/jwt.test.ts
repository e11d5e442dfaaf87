import { createHmac } from 'node:crypto';
import { generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEARER_MESSAGES, createJwtVerifier, issueJwt } from '../../shared/auth/jwt.js';
import { ServiceError } from '../../shared/errors.js';
import type { AccountStore } from '../../shared/store/types.js';
import { postJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC as ABC } from '../helpers/digests.js';

const SECRET = 'jwt-test-secret-0123456789-abcdefghijklmnop';
const ISSUER = 'sha224d-test';
const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const key = new TextEncoder().encode(SECRET);

/** A token signed with SECRET with full control of header and claims. */
function sign(claims: JWTPayload, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }): Promise<string> {
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key);
}

/** HMAC-SHA-256 over any header, bypassing jose's own checks on what it signs. */
function rawSign(header: Record<string, unknown>, payload: JWTPayload): string {
  const signingInput = `${b64(header)}.${b64(payload)}`;
  return `${signingInput}.${createHmac('sha256', SECRET).update(signingInput).digest('base64url')}`;
}

function claims(accountId: string, extra: JWTPayload = {}): JWTPayload {
  const iat = now();
  return { sub: accountId, iss: ISSUER, iat, exp: iat + 600, permissions: ['hash:create', 'hash:verify'], ...extra };
}

describe('Enterprise JWTs over HTTP (docs/api.md "Authentication" rule 7)', () => {
  let s: TestServer;
  let basicAccount: string;
  beforeAll(async () => {
    s = await startTestServer({ env: { JWT_SECRET: SECRET, JWT_ISSUER: ISSUER } });
    basicAccount = (await s.newKey({ plan: 'pro' })).accountId;
  });
  afterAll(() => s.close());

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const hash = (token: string) => postJson(`${s.url}/v2/hash`, { data: 'abc' }, bearer(token));
  const verify = (token: string) => postJson(`${s.url}/v2/verify`, { data: 'abc', hash: ABC }, bearer(token));

  function expectRefused(r: { status: number; body: any }, code = 'UNAUTHORIZED', message: string = BEARER_MESSAGES.invalid) {
    expect(r.status).toBe(code === 'FORBIDDEN' ? 403 : 401);
    expect(r.body).toMatchObject({ success: false, error: { code, message } });
  }

  it('hashes with a valid token issued by issueJwt', async () => {
    const token = await issueJwt({ secret: SECRET, issuer: ISSUER, accountId: s.accountId, permissions: ['hash:create'] });
    const r = await hash(token);
    expect(r.status).toBe(200);
    expect(r.body.hash).toBe(ABC);
  });

  it('enforces permissions: hash:verify alone → 403 on /v2/hash, 200 on /v2/verify', async () => {
    const token = await issueJwt({ secret: SECRET, issuer: ISSUER, accountId: s.accountId, permissions: ['hash:verify'] });
    const denied = await hash(token);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    // The token's words, not an API key's: JWTs carry a `permissions` claim.
    expect(denied.body.error).toMatchObject({
      message: 'Bearer token lacks permission for this request',
      details: "the token's permissions lack hash:create",
    });
    const ok = await verify(token);
    expect(ok.status).toBe(200);
    expect(ok.body.valid).toBe(true);
  });

  it('rawSign builds tokens the verifier accepts (so the refusals below are about what they change)', async () => {
    expect((await hash(rawSign({ alg: 'HS256', typ: 'JWT' }, claims(s.accountId)))).status).toBe(200);
  });

  it('accepts typ absent and typ "application/jwt"; refuses another typ', async () => {
    expect((await hash(await sign(claims(s.accountId), { alg: 'HS256' }))).status).toBe(200);
    expect((await hash(await sign(claims(s.accountId), { alg: 'HS256', typ: 'application/jwt' }))).status).toBe(200);
    expectRefused(await hash(await sign(claims(s.accountId), { alg: 'HS256', typ: 'at+jwt' })));
  });

  it("answers an expired token with 401 EXPIRED_KEY (and not the OAuth verifier's error)", async () => {
    const iat = now() - 800;
    const r = await hash(await sign(claims(s.accountId, { iat, exp: iat + 700 })));
    expect(r.status).toBe(401);
    expect(r.body.error).toEqual({ code: 'EXPIRED_KEY', message: BEARER_MESSAGES.expired, details: '' });
  });

  it('accepts a token that expired within the 30 s clock tolerance', async () => {
    const iat = now() - 310;
    expect((await hash(await sign(claims(s.accountId, { iat, exp: iat + 300 })))).status).toBe(200);
  });

  it('refuses a token of a non-Enterprise account with 403 FORBIDDEN', async () => {
    const token = await issueJwt({ secret: SECRET, issuer: ISSUER, accountId: basicAccount, permissions: ['hash:create'] });
    expectRefused(await hash(token), 'FORBIDDEN', BEARER_MESSAGES.notEnterprise);
  });

  describe('refuses with 401 UNAUTHORIZED and one dull message', () => {
    const cases: Array<[string, (account: string) => Promise<string>]> = [
      ['HS512', (a) => sign(claims(a), { alg: 'HS512', typ: 'JWT' })],
      ['alg none (unsecured JWT)', (a) => Promise.resolve(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims(a))}.`)],
      ['alg none with a signature part', async (a) => `${b64({ alg: 'none' })}.${b64(claims(a))}.${(await sign(claims(a))).split('.')[2]}`],
      [
        'RS256-shaped header over an HMAC signature (alg confusion)',
        (a) => Promise.resolve(rawSign({ alg: 'RS256', typ: 'JWT' }, claims(a))),
      ],
      [
        'a real RS256 token',
        async (a) => {
          const { privateKey } = await generateKeyPair('RS256');
          return new SignJWT(claims(a)).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
        },
      ],
      ['another secret', (a) => new SignJWT(claims(a)).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(40)))],
      ['a wrong issuer', (a) => sign(claims(a, { iss: 'someone-else' }))],
      [
        'a lifetime over 900 s',
        (a) => issueJwt({ secret: SECRET, issuer: ISSUER, accountId: a, permissions: ['hash:create'], lifetimeSeconds: 3600 }),
      ],
      ['an iat in the future', (a) => sign(claims(a, { iat: now() + 300, exp: now() + 600 }))],
      ['no sub', (a) => sign(claims(a, { sub: undefined }))],
      ['no iss', (a) => sign(claims(a, { iss: undefined }))],
      ['no exp', (a) => sign(claims(a, { exp: undefined }))],
      ['no iat', (a) => sign(claims(a, { iat: undefined }))],
      ['no permissions', (a) => sign(claims(a, { permissions: undefined }))],
      ['empty permissions', (a) => sign(claims(a, { permissions: [] }))],
      ['permissions as a string', (a) => sign(claims(a, { permissions: 'hash:create' }))],
      ['an unknown permission', (a) => sign(claims(a, { permissions: ['hash:create', 'admin:all'] }))],
      ['a non-string exp', (a) => sign(claims(a, { exp: String(now() + 600) as unknown as number }))],
      ['an unknown account', () => sign(claims('acc_00000000-0000-0000-0000-000000000000'))],
      ['a numeric sub', () => sign(claims('x', { sub: 42 as unknown as string }))],
      ['an unknown crit header', (a) => Promise.resolve(rawSign({ alg: 'HS256', crit: ['x-unknown'], 'x-unknown': 1 }, claims(a)))],
      ['a header without alg', (a) => Promise.resolve(rawSign({ typ: 'JWT' }, claims(a)))],
      [
        'a tampered signature',
        async (a) => {
          const t = await sign(claims(a));
          const last = t.at(-2) === 'A' ? 'B' : 'A';
          return t.slice(0, -2) + last + t.at(-1)!;
        },
      ],
      [
        'a tampered payload (permissions widened, signature kept)',
        async (a) => {
          const [h, , sig] = (await sign(claims(a, { permissions: ['hash:verify'] }))).split('.');
          return `${h}.${b64(claims(a, { permissions: ['hash:create', 'hash:verify'] }))}.${sig}`;
        },
      ],
      ['a JWT-shaped garbage token', () => Promise.resolve('abc.def.ghi')],
    ];
    it.each(cases)('%s', async (_name, make) => {
      expectRefused(await hash(await make(s.accountId)));
    });
  });

  it('a bearer token of no known shape keeps the catalog message', async () => {
    const r = await hash('not-a-token');
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid or missing API key' });
  });

  it('API keys still work as bearer tokens next to JWTs', async () => {
    expect((await hash(s.keys.production)).body.hash).toBe(ABC);
  });
});

describe('a server without JWT_SECRET', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('refuses every JWT with 401 UNAUTHORIZED', async () => {
    const token = await issueJwt({ secret: SECRET, issuer: 'sha224d', accountId: s.accountId, permissions: ['hash:create'] });
    const r = await postJson(`${s.url}/v2/hash`, { data: 'abc' }, { authorization: `Bearer ${token}` });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('createJwtVerifier and issueJwt (unit)', () => {
  const store = {
    getAccount: (id: string) =>
      Promise.resolve(id === 'acc_1' ? { id, name: 'e', plan: 'enterprise' as const, createdAt: new Date() } : undefined),
  } as unknown as AccountStore;

  it('returns the principal the contract describes', async () => {
    const verifier = createJwtVerifier({ secret: SECRET, issuer: ISSUER, store });
    const token = await issueJwt({
      secret: SECRET,
      issuer: ISSUER,
      accountId: 'acc_1',
      permissions: ['hash:create', 'usage:read', 'hash:create'],
      jti: 'tok-7',
    });
    expect(await verifier.verify(token)).toEqual({
      accountId: 'acc_1',
      plan: 'enterprise',
      credentialId: 'jwt:tok-7',
      via: 'jwt',
      keyType: 'production',
      allowedDomains: [],
      permissions: ['hash:create', 'usage:read'],
    });
    const noJti = await issueJwt({ secret: SECRET, issuer: ISSUER, accountId: 'acc_1', permissions: ['jobs:read'] });
    expect((await verifier.verify(noJti)).credentialId).toBe('jwt:acc_1');
  });

  it('keeps the reason in cause, not in the message', async () => {
    const verifier = createJwtVerifier({ secret: SECRET, issuer: ISSUER, store });
    const token = await sign({ ...claims('acc_1'), iss: 'other' });
    const err = await verifier.verify(token).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).message).toBe(BEARER_MESSAGES.invalid);
    expect(String((err as ServiceError).cause)).toMatch(/iss/);
  });

  it('honours maxLifetimeSeconds and a clock', async () => {
    const verifier = createJwtVerifier({
      secret: SECRET,
      issuer: ISSUER,
      store,
      maxLifetimeSeconds: 60,
      now: () => new Date(Date.now() + 10_000),
    });
    await expect(
      verifier.verify(
        await issueJwt({ secret: SECRET, issuer: ISSUER, accountId: 'acc_1', permissions: ['hash:create'], lifetimeSeconds: 60 }),
      ),
    ).resolves.toBeTruthy();
    await expect(
      verifier.verify(
        await issueJwt({ secret: SECRET, issuer: ISSUER, accountId: 'acc_1', permissions: ['hash:create'], lifetimeSeconds: 61 }),
      ),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it.each([
    ['a secret under 32 bytes', () => createJwtVerifier({ secret: 'short', issuer: ISSUER, store }), RangeError, /secret/],
    ['an empty issuer', () => createJwtVerifier({ secret: SECRET, issuer: '', store }), TypeError, /issuer/],
    [
      'a zero lifetime',
      () => createJwtVerifier({ secret: SECRET, issuer: ISSUER, store, maxLifetimeSeconds: 0 }),
      RangeError,
      /maxLifetimeSeconds/,
    ],
    [
      'a negative tolerance',
      () => createJwtVerifier({ secret: SECRET, issuer: ISSUER, store, clockToleranceSeconds: -1 }),
      RangeError,
      /clockToleranceSeconds/,
    ],
  ])('createJwtVerifier refuses %s', (_name, make, type, message) => {
    expect(make).toThrow(type);
    expect(make).toThrow(message);
  });

  it.each([
    ['a secret under 32 bytes', { secret: 'short' }, /secret/],
    ['no permissions', { permissions: [] }, /permissions/],
    ['an unknown permission', { permissions: ['root'] }, /permissions/],
    ['a zero lifetime', { lifetimeSeconds: 0 }, /lifetimeSeconds/],
    ['an empty account', { accountId: '' }, /accountId/],
  ])('issueJwt refuses %s', async (_name, override, message) => {
    await expect(
      issueJwt({ secret: SECRET, issuer: ISSUER, accountId: 'acc_1', permissions: ['hash:create'], ...override }),
    ).rejects.toThrow(message);
  });
});
