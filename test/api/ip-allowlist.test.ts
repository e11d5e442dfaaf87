/**
 * IP allow-lists enforced on every way in: v1 and v2 over HTTP, /v2/ws upgrades and socket.io, for
 * a key's own list and its account's list; 403 IP_NOT_ALLOWED in each generation's envelope. A
 * forged X-Forwarded-For changes nothing without TRUST_PROXY; through a trusted proxy it is the
 * address judged. Free and Basic accounts cannot set a list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueJwt } from '../../shared/auth/jwt.js';
import { forgetApiKey } from '../../shared/keys/api-keys.js';
import { createApiKey } from '../../shared/keys/api-keys.js';
import type { Plan } from '../../shared/store/types.js';
import { connectSocketIo, refusedUpgrade, WsClient, wsUrl } from '../realtime/clients.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC as ABC } from '../helpers/digests.js';

const OUTSIDE = '203.0.113.7';
let s: TestServer;

const JWT_SECRET = 'ip-allowlist-test-secret-0123456789-abcdef';

beforeAll(async () => {
  s = await startTestServer({ realtime: {}, env: { JWT_SECRET, JWT_ISSUER: 'sha224d' } });
});
afterAll(() => s?.close());

async function keyWith(options: { plan?: Plan; keyIps?: string[]; accountIps?: string[] }): Promise<string> {
  const account = await s.store.createAccount({ name: 'ip', plan: options.plan ?? 'pro' });
  if (options.accountIps) await s.store.keySettings.setAccountAllowedIps(account.id, options.accountIps);
  const { secret } = await createApiKey(s.store, {
    accountId: account.id,
    type: 'production',
    description: 'ip',
    allowedIps: options.keyIps ?? [],
  });
  return secret;
}

async function hashV2(key: string, headers: Record<string, string> = {}, base = s.url): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/v2/hash`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ data: 'abc' }),
  });
  return { status: res.status, body: await res.json() };
}

async function hashV1(key: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}/v1/hash/text`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'abc' }),
  });
  return { status: res.status, body: await res.json() };
}

async function connectError(promise: ReturnType<typeof connectSocketIo>): Promise<any> {
  try {
    (await promise).close();
  } catch (err) {
    return (err as { data?: unknown }).data;
  }
  throw new Error('connected');
}

describe('IP allow-lists', () => {
  it("refuses a request from outside the key's list on v2 and v1, each in its envelope", async () => {
    const key = await keyWith({ keyIps: [OUTSIDE] });
    const v2 = await hashV2(key);
    expect(v2.status).toBe(403);
    expect(v2.body).toMatchObject({ success: false, error: { code: 'IP_NOT_ALLOWED', details: expect.stringContaining('127.0.0.1') } });
    const v1 = await hashV1(key);
    expect(v1.status).toBe(403);
    expect(v1.body).toMatchObject({ error: { code: 'IP_NOT_ALLOWED', details: { info: expect.stringContaining("key's") } } });
  });

  it("refuses a request from outside the account's list, whatever the key's list says", async () => {
    const key = await keyWith({ keyIps: ['127.0.0.0/8'], accountIps: ['10.0.0.0/8'] });
    const res = await hashV2(key);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('IP_NOT_ALLOWED');
    expect(res.body.error.details).toContain("account's");
  });

  it('answers a request from inside both lists, and from anywhere with empty lists', async () => {
    for (const key of [await keyWith({ keyIps: ['127.0.0.1'], accountIps: ['127.0.0.0/8', '::1'] }), await keyWith({})]) {
      const res = await hashV2(key);
      expect(res).toEqual({ status: 200, body: expect.objectContaining({ hash: ABC }) });
    }
  });

  it("applies the account's list to bearer tokens too (a JWT of the account)", async () => {
    const account = await s.store.createAccount({ name: 'jwt', plan: 'enterprise' });
    const token = await issueJwt({ secret: JWT_SECRET, issuer: 'sha224d', accountId: account.id, permissions: ['hash:create'] });
    const bearer = { 'x-api-key': '', authorization: `Bearer ${token}` };
    expect((await hashV2('', bearer)).status).toBe(200);
    await s.store.keySettings.setAccountAllowedIps(account.id, [OUTSIDE]);
    const refused = await hashV2('', bearer);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('IP_NOT_ALLOWED');
  });

  it('a forged X-Forwarded-For does not help without TRUST_PROXY', async () => {
    const key = await keyWith({ keyIps: [OUTSIDE] });
    const res = await hashV2(key, { 'x-forwarded-for': OUTSIDE });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('IP_NOT_ALLOWED');
  });

  it('an edited list applies to the next request in this process', async () => {
    const account = await s.store.createAccount({ name: 'edit', plan: 'enterprise' });
    const { secret, record } = await createApiKey(s.store, { accountId: account.id, type: 'production', description: 'x' });
    expect((await hashV2(secret)).status).toBe(200);
    await s.store.keySettings.updateKey(record.id, { allowedIps: [OUTSIDE] });
    forgetApiKey(s.store, record.id);
    expect((await hashV2(secret)).body.error.code).toBe('IP_NOT_ALLOWED');
  });

  it('refuses /v2/ws upgrades and socket.io connections from outside the list', async () => {
    const key = await keyWith({ keyIps: [OUTSIDE] });
    const refused = await refusedUpgrade(wsUrl(s.url, key));
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('IP_NOT_ALLOWED');
    const spoofed = await refusedUpgrade(wsUrl(s.url, key), { headers: { 'x-forwarded-for': OUTSIDE } });
    expect(spoofed.body.error.code).toBe('IP_NOT_ALLOWED');
    expect((await connectError(connectSocketIo(s.url, { api_key: key }))).error.code).toBe('IP_NOT_ALLOWED');
    const allowed = await WsClient.open(wsUrl(s.url, await keyWith({ keyIps: ['127.0.0.1'] })));
    allowed.ws.close();
  });
});

describe('IP allow-lists behind a trusted proxy (TRUST_PROXY=loopback)', () => {
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startTestServer({ env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => proxied?.close());

  it('judges the address the proxy names in X-Forwarded-For', async () => {
    const account = await proxied.store.createAccount({ name: 'proxied', plan: 'pro' });
    const { secret } = await createApiKey(proxied.store, {
      accountId: account.id,
      type: 'production',
      description: 'p',
      allowedIps: [OUTSIDE],
    });
    // X-Forwarded-Proto: the proxy terminated TLS (TRUST_PROXY turns on the HTTPS-only rule).
    const https = { 'x-forwarded-proto': 'https' };
    expect((await hashV2(secret, { ...https, 'x-forwarded-for': OUTSIDE }, proxied.url)).status).toBe(200);
    const other = await hashV2(secret, { ...https, 'x-forwarded-for': '198.51.100.1' }, proxied.url);
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('IP_NOT_ALLOWED');
    // Only the hop the trusted proxy added counts: an address the client put further left does not.
    const forged = await hashV2(secret, { ...https, 'x-forwarded-for': `${OUTSIDE}, 198.51.100.1` }, proxied.url);
    expect(forged.status).toBe(403);
  });
});

describe('setting a list needs Pro or Enterprise', () => {
  it.each(['free', 'basic'] as const)('a %s account is refused with a clear message', async (plan) => {
    const { addPersonToAccount } = await import('../../shared/accounts/people.js');
    const account = await s.store.createAccount({ name: plan, plan });
    const added = await addPersonToAccount(s.store, { accountId: account.id, email: `${plan}@example.com`, role: 'owner', baseUrl: s.url });
    const token = new URL(added.setupLink!.url).hash.replace('#token=', '');
    const signed = await fetch(`${s.url}/dashboard/api/links/set-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: s.url },
      body: JSON.stringify({ token, password: 'a long enough password' }),
    });
    const cookie = signed.headers.get('set-cookie')!.split(';')[0]!;
    const { csrfToken } = (await signed.json()) as { csrfToken: string };
    const res = await fetch(`${s.url}/dashboard/api/accounts/${account.id}/ip-allowlist`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: s.url, cookie, 'x-csrf-token': csrfToken },
      body: JSON.stringify({ allowedIps: ['203.0.113.0/24'] }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'IP allow-listing is available on the Pro and Enterprise plans',
    );
  });
});
