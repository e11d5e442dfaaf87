/**
 * Per-account JWT keys: reading pasted PEM/JWK/JWKS material, and verifying tokens signed with an
 * account's own key (iss = account, kid = key, aud checked); deleting or replacing a key cuts its
 * tokens off at once; one account's key cannot sign for another.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { exportJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountJwtVerifier, isAccountSignedJwt } from '../../api/auth/account-jwt.js';
import { parseJwtKeyMaterial } from '../../api/auth/jwt-keys.js';
import { ServiceError } from '../../shared/errors.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';

const AUD = 'sha224d-test';
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'spki' }).toString();

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<ServiceError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('parseJwtKeyMaterial', () => {
  it('reads a PEM public key (EC P-256 → ES256, Ed25519 → EdDSA) into a minimal JWK under the given kid', async () => {
    const [es] = parseJwtKeyMaterial({ format: 'pem', material: pem(ec.publicKey), kid: 'k-es' });
    const jwk = await exportJWK(ec.publicKey);
    expect(es).toEqual({ kid: 'k-es', alg: 'ES256', source: 'pem', publicJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } });
    const [eddsa] = parseJwtKeyMaterial({ format: 'pem', material: pem(ed.publicKey), kid: 'k-ed' });
    expect(eddsa).toMatchObject({
      kid: 'k-ed',
      alg: 'EdDSA',
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: (await exportJWK(ed.publicKey)).x },
    });
  });

  it('reads a JWK (its own kid, or the given one) and a JWKS of several keys', async () => {
    const jwk = { ...(await exportJWK(ed.publicKey)), kid: 'own', use: 'sig', alg: 'EdDSA' };
    expect(parseJwtKeyMaterial({ format: 'jwk', material: JSON.stringify(jwk) })[0]?.kid).toBe('own');
    expect(parseJwtKeyMaterial({ format: 'jwk', material: JSON.stringify(jwk), kid: 'given' })[0]?.kid).toBe('given');
    const jwks = { keys: [jwk, { ...(await exportJWK(ec.publicKey)), kid: 'two' }] };
    expect(parseJwtKeyMaterial({ format: 'jwks', material: JSON.stringify(jwks) }).map((k) => [k.kid, k.alg, k.source])).toEqual([
      ['own', 'EdDSA', 'jwks'],
      ['two', 'ES256', 'jwks'],
    ]);
  });

  it.each([
    [
      'a private key PEM',
      () => ({ format: 'pem', material: ec.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), kid: 'k' }),
      'private key',
    ],
    [
      'a private JWK',
      async () => ({ format: 'jwk', material: JSON.stringify({ ...(await exportJWK(ed.privateKey)), kid: 'k' }) }),
      'private key',
    ],
    ['an HS256 secret', () => ({ format: 'jwk', material: JSON.stringify({ kty: 'oct', k: 'c2VjcmV0', kid: 'k' }) }), 'private key'],
    [
      'an RSA key',
      () => ({ format: 'pem', material: pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey), kid: 'k' }),
      'only EC P-256',
    ],
    [
      'a P-384 key',
      () => ({ format: 'pem', material: pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey), kid: 'k' }),
      'only EC P-256',
    ],
    ['a PEM without kid', () => ({ format: 'pem', material: pem(ec.publicKey) }), 'needs a kid'],
    [
      'a point off the curve',
      () => ({ format: 'jwk', material: JSON.stringify({ kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43), kid: 'k' }) }),
      'not a valid public key',
    ],
    [
      'a wrong alg',
      async () => ({ format: 'jwk', material: JSON.stringify({ ...(await exportJWK(ed.publicKey)), kid: 'k', alg: 'ES256' }) }),
      '"alg" must be EdDSA',
    ],
    [
      'an encryption key',
      async () => ({ format: 'jwk', material: JSON.stringify({ ...(await exportJWK(ed.publicKey)), kid: 'k', use: 'enc' }) }),
      '"use" must be "sig"',
    ],
    [
      'a JWKS with a repeated kid',
      async () => ({
        format: 'jwks',
        material: JSON.stringify({
          keys: [
            { ...(await exportJWK(ed.publicKey)), kid: 'a' },
            { ...(await exportJWK(ec.publicKey)), kid: 'a' },
          ],
        }),
      }),
      'its own kid',
    ],
    ['an empty JWKS', () => ({ format: 'jwks', material: '{"keys":[]}' }), 'at least one key'],
    ['not JSON', () => ({ format: 'jwk', material: '{kty' }), 'not valid JSON'],
    [
      'a certificate',
      () => ({ format: 'pem', material: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----', kid: 'k' }),
      'PEM public key',
    ],
  ])('refuses %s', async (_name, make, message) => {
    const input = (await make()) as Parameters<typeof parseJwtKeyMaterial>[0];
    const err = await refusal(() => parseJwtKeyMaterial(input));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toContain(message);
  });
});

describe('account-signed JWT verifier', () => {
  let store: KyselyAccountStore;
  let accountId: string;
  let otherId: string;
  const now = new Date();
  const iat = Math.floor(now.getTime() / 1000);

  beforeAll(async () => {
    store = await createStore({ sqlitePath: ':memory:' });
    accountId = (await store.createAccount({ name: 'ent', plan: 'enterprise' })).id;
    otherId = (await store.createAccount({ name: 'other', plan: 'enterprise' })).id;
    await store.jwtKeys.add(accountId, [
      ...parseJwtKeyMaterial({ format: 'pem', material: pem(ec.publicKey), kid: 'es' }),
      ...parseJwtKeyMaterial({ format: 'pem', material: pem(ed.publicKey), kid: 'ed' }),
    ]);
  });
  afterAll(() => store?.close());

  const verifier = () => createAccountJwtVerifier({ store, audience: AUD, now: () => now });
  function sign(
    opts: {
      kid?: string;
      alg?: string;
      key?: KeyObject;
      iss?: string;
      aud?: string | undefined;
      claims?: Record<string, unknown>;
      exp?: number;
      iat?: number;
    } = {},
  ) {
    const alg = opts.alg ?? 'ES256';
    const jwt = new SignJWT({ permissions: ['hash:create'], ...opts.claims })
      .setProtectedHeader({ alg, ...(opts.kid === '' ? {} : { kid: opts.kid ?? 'es' }), typ: 'JWT' })
      .setSubject('build-server')
      .setIssuer(opts.iss ?? accountId)
      .setIssuedAt(opts.iat ?? iat)
      .setExpirationTime(opts.exp ?? iat + 600);
    if (opts.aud !== undefined || !('aud' in opts)) jwt.setAudience(opts.aud ?? AUD);
    return jwt.sign(opts.key ?? (alg === 'EdDSA' ? ed.privateKey : ec.privateKey));
  }

  it('accepts ES256 and EdDSA tokens naming the account and the key, as an Enterprise production principal', async () => {
    const es = await verifier().verify(await sign());
    expect(es).toEqual({
      accountId,
      plan: 'enterprise',
      credentialId: 'jwt:es:build-server',
      via: 'jwt',
      keyType: 'production',
      allowedDomains: [],
      permissions: ['hash:create'],
    });
    expect((await verifier().verify(await sign({ kid: 'ed', alg: 'EdDSA', claims: { jti: 't1' } }))).credentialId).toBe('jwt:ed:t1');
    expect(isAccountSignedJwt(await sign())).toBe(true);
  });

  it.each([
    ['a wrong audience', () => sign({ aud: 'someone-else' }), 'UNAUTHORIZED'],
    ['no audience', () => sign({ aud: undefined }), 'UNAUTHORIZED'],
    ['an unknown kid', () => sign({ kid: 'nope' }), 'UNAUTHORIZED'],
    ['no kid', () => sign({ kid: '' }), 'UNAUTHORIZED'],
    ['another account as issuer', () => sign({ iss: 'acc_other' }), 'UNAUTHORIZED'],
    ['a key of another alg under this kid', () => sign({ kid: 'es', alg: 'EdDSA' }), 'UNAUTHORIZED'],
    ['a signature by another key', () => sign({ key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }), 'UNAUTHORIZED'],
    ['an expired token', () => sign({ iat: iat - 900, exp: iat - 60 }), 'EXPIRED_KEY'],
    ['a lifetime over 15 minutes', () => sign({ exp: iat + 901 }), 'UNAUTHORIZED'],
    ['an unknown permission', () => sign({ claims: { permissions: ['hash:create', 'admin'] } }), 'UNAUTHORIZED'],
    ['no permissions', () => sign({ claims: { permissions: [] } }), 'UNAUTHORIZED'],
  ])('refuses %s', async (_name, make, code) => {
    const err = await refusal(verifier().verify(await make()));
    expect(err.code).toBe(code);
    expect(err.message).toBe(code === 'EXPIRED_KEY' ? 'Bearer token has expired' : 'Invalid bearer token');
  });

  it('refuses HS256 signed with the public key as a secret (algorithm confusion) and alg none', async () => {
    const hsKey = new TextEncoder().encode(pem(ec.publicKey));
    const hs = await new SignJWT({ permissions: ['hash:create'] })
      .setProtectedHeader({ alg: 'HS256', kid: 'es' })
      .setSubject('x')
      .setIssuer(accountId)
      .setAudience(AUD)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(hsKey);
    expect((await refusal(verifier().verify(hs))).code).toBe('UNAUTHORIZED');
    const [, payload] = (await sign()).split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'es' })).toString('base64url')}.${payload}.`;
    expect((await refusal(verifier().verify(none))).code).toBe('UNAUTHORIZED');
  });

  it("cannot sign for another account: the other account's tokens need the other account's key", async () => {
    await store.jwtKeys.add(
      otherId,
      parseJwtKeyMaterial({ format: 'pem', material: pem(generateKeyPairSync('ed25519').publicKey), kid: 'es' }),
    );
    expect((await refusal(verifier().verify(await sign({ iss: otherId })))).code).toBe('UNAUTHORIZED');
  });

  it('cuts tokens off at once when their key is deleted or replaced, and refuses a non-Enterprise account', async () => {
    const acc = (await store.createAccount({ name: 'rot', plan: 'enterprise' })).id;
    const old = generateKeyPairSync('ed25519');
    await store.jwtKeys.add(acc, parseJwtKeyMaterial({ format: 'pem', material: pem(old.publicKey), kid: 'k1' }));
    const token = await sign({ iss: acc, kid: 'k1', alg: 'EdDSA', key: old.privateKey });
    const v = verifier();
    expect((await v.verify(token)).accountId).toBe(acc);
    await store.jwtKeys.replaceAll(acc, parseJwtKeyMaterial({ format: 'pem', material: pem(ed.publicKey), kid: 'k2' }));
    expect((await refusal(v.verify(token))).code).toBe('UNAUTHORIZED');
    const fresh = await sign({ iss: acc, kid: 'k2', alg: 'EdDSA' });
    expect((await v.verify(fresh)).accountId).toBe(acc);
    await store.setPlan(acc, 'pro');
    expect(await refusal(v.verify(fresh))).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Bearer tokens are available to Enterprise accounts only',
    });
    await store.setPlan(acc, 'enterprise');
    expect(await store.jwtKeys.delete(acc, 'k2')).toBe(true);
    expect((await refusal(v.verify(fresh))).code).toBe('UNAUTHORIZED');
  });

  it('records when a key was last used', async () => {
    await verifier().verify(await sign({ kid: 'ed', alg: 'EdDSA' }));
    await expect
      .poll(async () => (await store.jwtKeys.find(accountId, 'ed'))?.lastUsedAt?.getTime(), { timeout: 2000 })
      .toBe(now.getTime());
  });
});
