/** The key service against both engines: lifecycle, refusals, cache, throttled last-use writes. */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bootstrapAdmin } from '../../shared/accounts/first-start.js';
import { ERROR_CATALOG, ServiceError } from '../../shared/errors.js';
import {
  authenticateApiKey,
  cachedApiKey,
  CACHE_TTL_MS,
  clearApiKeyCache,
  createApiKey,
  revokeApiKey,
  TOUCH_INTERVAL_MS,
} from '../../shared/keys/api-keys.js';
import { generateApiKey, hashApiKey, API_KEY_PREFIX } from '../../shared/keys/format.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import type { AccountStore } from '../../shared/store/types.js';
import { createTestDatabase, ENGINES, type TestDatabase } from '../store/engines.js';

/** A store whose every method call is recorded. */
function spied(store: AccountStore): { store: AccountStore; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

async function refusal(p: Promise<unknown>): Promise<ServiceError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

describe.each(ENGINES)('API keys on %s', (engine) => {
  let t: TestDatabase;
  let store: KyselyAccountStore;
  let accountId: string;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    store = await createStore(t.options);
    accountId = (await store.createAccount({ name: 'Acme', plan: 'pro' })).id;
  });
  afterAll(async () => {
    await store?.close();
    await t?.cleanup();
  });

  it('lifecycle: create → authenticate → revoke → refused, and never restored', async () => {
    const { record, secret } = await createApiKey(store, { accountId, type: 'production', description: ' CI ' });
    expect(record).toMatchObject({ accountId, type: 'production', description: 'CI', revokedAt: null });
    expect(record.allowedDomains).toEqual([]);
    expect(record.prefix).toBe(secret.slice(0, 12));

    const principal = await authenticateApiKey(store, secret);
    expect(principal).toEqual({
      accountId,
      plan: 'pro',
      credentialId: record.id,
      via: 'api_key',
      keyType: 'production',
      allowedDomains: [],
      allowedIps: [],
      accountAllowedIps: [],
    });

    expect(await revokeApiKey(store, record.id)).toBe(true);
    const err = await refusal(authenticateApiKey(store, secret));
    expect(err.code).toBe('UNAUTHORIZED');
    // Its holder learns it was revoked, and what to do (docs/api.md "Key states").
    expect([err.message, err.details]).toEqual(['This API key has been revoked', 'Create a new key in the dashboard']);

    expect(await revokeApiKey(store, record.id)).toBe(false);
    clearApiKeyCache(store);
    expect((await refusal(authenticateApiKey(store, secret))).code).toBe('UNAUTHORIZED');
    expect((await store.getKey(record.id))?.revokedAt).toBeInstanceOf(Date);
  });

  it('client keys carry their normalised domains into the principal', async () => {
    const { secret } = await createApiKey(store, {
      accountId,
      type: 'client',
      description: 'web',
      allowedDomains: ['App.Example.com', '*.example.org'],
    });
    const p = await authenticateApiKey(store, secret);
    expect(p.keyType).toBe('client');
    expect(p.allowedDomains).toEqual(['app.example.com', '*.example.org']);
  });

  it('an expired key yields EXPIRED_KEY, also when served from the cache', async () => {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 60_000);
    const { secret } = await createApiKey(store, { accountId, type: 'development', description: 'soon', expiresAt });
    await authenticateApiKey(store, secret, now); // cached now
    const later = new Date(expiresAt.getTime() + 1);
    expect((await refusal(authenticateApiKey(store, secret, expiresAt))).code).toBe('EXPIRED_KEY');
    clearApiKeyCache(store);
    const err = await refusal(authenticateApiKey(store, secret, later));
    expect(err.code).toBe('EXPIRED_KEY');
    expect(err.status).toBe(401);
    expect(err.message).toBe(ERROR_CATALOG.EXPIRED_KEY.message);
  });

  it('cachedApiKey answers only a fresh, unexpired cached key, with the principal authenticateApiKey gives', async () => {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 60_000);
    const { secret } = await createApiKey(store, { accountId, type: 'production', description: 'cached', expiresAt });
    clearApiKeyCache(store);
    expect(cachedApiKey(store, secret, now.getTime())).toBeUndefined();
    expect(cachedApiKey(store, 'not a key', now.getTime())).toBeUndefined();
    const principal = await authenticateApiKey(store, secret, now);
    expect(cachedApiKey(store, secret, now.getTime())).toEqual(principal);
    expect(cachedApiKey(store, secret, now.getTime() + CACHE_TTL_MS)).toBeUndefined();
    expect(cachedApiKey(store, secret, expiresAt.getTime())).toBeUndefined();
  });

  it('refuses malformed keys without a single store call', async () => {
    const { secret } = await createApiKey(store, { accountId, type: 'production', description: 'x' });
    const { store: spy, calls } = spied(store);
    const oneCharOff = secret.slice(0, 20) + (secret[20] === 'a' ? 'b' : 'a') + secret.slice(21);
    for (const bad of [oneCharOff, '', undefined, 'nonsense', `${secret} `, secret.toUpperCase(), 'Bearer x']) {
      const err = await refusal(authenticateApiKey(spy, bad));
      expect(err.code).toBe('UNAUTHORIZED');
      expect(err.message).toBe(ERROR_CATALOG.UNAUTHORIZED.message);
    }
    expect(calls).toEqual([]);
  });

  it('refuses a well-formed unknown key after one lookup, with the same dull message', async () => {
    const { store: spy, calls } = spied(store);
    const err = await refusal(authenticateApiKey(spy, generateApiKey()));
    expect(err.code).toBe('UNAUTHORIZED');
    expect(err.message).toBe(ERROR_CATALOG.UNAUTHORIZED.message);
    expect(calls).toEqual(['findKeyByHash']);
  });

  it('a burst of requests with one uncached key shares one store lookup', async () => {
    const { secret, record } = await createApiKey(store, { accountId, type: 'production', description: 'burst' });
    const { store: spy, calls } = spied(store);
    const principals = await Promise.all(Array.from({ length: 50 }, () => authenticateApiKey(spy, secret)));
    expect(principals.map((p) => p.credentialId)).toEqual(Array.from({ length: 50 }, () => record.id));
    expect(calls.filter((call) => call === 'findKeyByHash')).toEqual(['findKeyByHash']);
  });

  it('validates creation input', async () => {
    const cases: [Parameters<typeof createApiKey>[1], string][] = [
      [{ accountId, type: 'client', description: 'web' }, 'field: allowedDomains'],
      [{ accountId, type: 'production', description: 'p', allowedDomains: ['a.com'] }, 'field: allowedDomains'],
      [{ accountId, type: 'client', description: 'w', allowedDomains: ['https://a.com'] }, 'field: allowedDomains'],
      [{ accountId, type: 'production', description: 'p', expiresAt: new Date(Date.now() - 1) }, 'field: expiresAt'],
      [{ accountId, type: 'production', description: 'p', expiresAt: new Date(NaN) }, 'field: expiresAt'],
      [{ accountId, type: 'production', description: '   ' }, 'field: description'],
      [{ accountId, type: 'production', description: 'x'.repeat(201) }, 'field: description'],
      [{ accountId, type: 'admin' as 'production', description: 'p' }, 'field: type'],
      [{ accountId: 'acc_missing', type: 'production', description: 'p' }, 'field: accountId'],
    ];
    for (const [input, details] of cases) {
      const err = await refusal(createApiKey(store, input));
      expect(err.code).toBe('INVALID_INPUT');
      expect(err.details).toBe(details);
    }
  });

  it('caches positive results for CACHE_TTL_MS; revokeApiKey in this process takes effect at once', async () => {
    const { record, secret } = await createApiKey(store, { accountId, type: 'production', description: 'hot' });
    const { store: spy, calls } = spied(store);
    const t0 = new Date();
    await authenticateApiKey(spy, secret, t0);
    await authenticateApiKey(spy, secret, new Date(t0.getTime() + CACHE_TTL_MS - 1));
    expect(calls.filter((c) => c === 'findKeyByHash')).toHaveLength(1);
    await authenticateApiKey(spy, secret, new Date(t0.getTime() + CACHE_TTL_MS));
    expect(calls.filter((c) => c === 'findKeyByHash')).toHaveLength(2);

    await revokeApiKey(spy, record.id);
    expect((await refusal(authenticateApiKey(spy, secret, new Date(t0.getTime() + CACHE_TTL_MS + 1)))).code).toBe('UNAUTHORIZED');
  });

  it('a revocation by another node is seen here within CACHE_TTL_MS (the documented staleness bound)', async () => {
    const { record, secret } = await createApiKey(store, { accountId, type: 'production', description: 'stale' });
    const t0 = new Date();
    await authenticateApiKey(store, secret, t0);
    const otherNode = await createStore(t.options);
    try {
      expect(await revokeApiKey(otherNode, record.id)).toBe(true);
    } finally {
      await otherNode.close();
    }
    await expect(authenticateApiKey(store, secret, new Date(t0.getTime() + CACHE_TTL_MS - 1))).resolves.toBeDefined();
    const err = await refusal(authenticateApiKey(store, secret, new Date(t0.getTime() + CACHE_TTL_MS)));
    expect(err.code).toBe('UNAUTHORIZED');
  });

  it('writes last_used_at at most once per TOUCH_INTERVAL_MS, without awaiting it', async () => {
    const { record, secret } = await createApiKey(store, { accountId, type: 'production', description: 'touch' });
    const { store: spy, calls } = spied(store);
    const t0 = new Date(Date.now() + 1000);
    await authenticateApiKey(spy, secret, t0);
    await authenticateApiKey(spy, secret, new Date(t0.getTime() + 10_000));
    await authenticateApiKey(spy, secret, new Date(t0.getTime() + TOUCH_INTERVAL_MS - 1));
    expect(calls.filter((c) => c === 'touchKey')).toHaveLength(1);
    // The write is fire-and-forget, so poll for it rather than sleep.
    await expect.poll(async () => (await store.getKey(record.id))?.lastUsedAt).toEqual(t0);

    const t1 = new Date(t0.getTime() + TOUCH_INTERVAL_MS);
    await authenticateApiKey(spy, secret, t1);
    expect(calls.filter((c) => c === 'touchKey')).toHaveLength(2);
    await expect.poll(async () => (await store.getKey(record.id))?.lastUsedAt).toEqual(t1);
  });

  it('a failing last-use write neither fails authentication nor leaks an unhandled rejection', async () => {
    const { secret } = await createApiKey(store, { accountId, type: 'production', description: 'fail-touch' });
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const failing = new Proxy(store, {
        get(target, prop, receiver) {
          if (prop === 'touchKey') return () => Promise.reject(new Error('db down'));
          const value: unknown = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
      await expect(authenticateApiKey(failing, secret)).resolves.toMatchObject({ accountId });
      // An unhandled rejection is reported once the microtask queue drains, before the next macrotask.
      await new Promise(setImmediate);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('no table holds a secret or its base62 body, only SHA-256 hashes', async () => {
    const created = await Promise.all([
      createApiKey(store, { accountId, type: 'production', description: 'scan-1' }),
      createApiKey(store, { accountId, type: 'client', description: 'scan-2', allowedDomains: ['a.example.com'] }),
    ]);
    for (const { secret } of created) await authenticateApiKey(store, secret);
    for (const { record } of created) await expect.poll(async () => (await store.getKey(record.id))?.lastUsedAt).toBeInstanceOf(Date);

    const dump: string[] = [];
    for (const table of ['accounts', 'api_keys', 'usage_daily', 'kysely_migration'] as const) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(store.db);
      dump.push(JSON.stringify(rows.rows));
    }
    const text = dump.join('\n');
    for (const { secret, record } of created) {
      const body = secret.slice(API_KEY_PREFIX.length);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(body);
      expect(text).not.toContain(body.slice(0, 32)); // the random part alone
      expect(text).not.toContain(secret.slice(12)); // everything past the displayed prefix
      expect(text).toContain(hashApiKey(secret));
      expect(text).toContain(record.prefix);
    }
  });

  it('bootstrapAdmin creates admin + a production key once, then does nothing', async () => {
    const fresh = await createTestDatabase(engine);
    const s = await createStore(fresh.options);
    try {
      const boot = await bootstrapAdmin(s);
      expect(boot).toBeDefined();
      const p = await authenticateApiKey(s, boot!.secret);
      expect(p).toMatchObject({ plan: 'enterprise', keyType: 'production', accountId: boot!.accountId });
      expect((await s.listAccounts()).map((a) => a.name)).toEqual(['admin']);
      expect(await bootstrapAdmin(s)).toBeUndefined();
      expect(await s.listKeys()).toHaveLength(1);
    } finally {
      await s.close();
      await fresh.cleanup();
    }
  });
});
