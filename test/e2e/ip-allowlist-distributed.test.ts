/**
 * IP allow-lists (docs/api.md "Authentication" rule 6; docs/decisions.md, the IP_NOT_ALLOWED line) on a
 * distributed deployment: two API nodes (dist/api.js) sharing PostgreSQL. Lists written to the
 * database are enforced by both nodes on v2 and v1 over HTTP, /v2/ws upgrades and socket.io; a list
 * edited through the management API of node A applies on A at once and on B within the key cache's
 * lifetime (CACHE_TTL_MS, polled, never slept); a forged X-Forwarded-For changes nothing without
 * TRUST_PROXY, and a node started with TRUST_PROXY=loopback judges the address the proxy names.
 *
 * The test client's peer address is 127.0.0.1, so "outside the list" is a list without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../api/sessions/passwords.js';
import { routePath } from '../../api/management/routes.js';
import { CACHE_TTL_MS, createApiKey } from '../../shared/keys/api-keys.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { connectSocketIo, refusedUpgrade, WsClient, wsUrl } from '../realtime/clients.js';
import { SHA224_ABC as ABC, sha224Hex } from '../helpers/digests.js';

/** SHA-224("abc"), FIPS 180-4 example. */
const OWNER_PASSWORD = 'distributed allow-list owner password';
/** A node that read a key just before an edit elsewhere may answer from its cache this long; generous for a loaded machine. */
const CROSS_NODE_BOUND_MS = CACHE_TTL_MS + 10_000;
/** X-Forwarded-Proto: the trusted proxy terminated TLS (TRUST_PROXY turns on the HTTPS-only rule). */
const VIA_TLS_PROXY = { 'x-forwarded-proto': 'https' };

interface Answer {
  status: number;
  body: unknown;
}

/** The v2 refusal, exactly (shared/errors.ts; api/middleware/ip-allowlist.ts words the details). */
function v2Refusal(address: string, list: "key's" | "account's"): unknown {
  return {
    success: false,
    error: {
      code: 'IP_NOT_ALLOWED',
      message: "The request's IP address is not on the credential's IP allow-list",
      details: `requests from ${address} are not on the ${list} IP allow-list`,
    },
  };
}

const v1Refusal = (list: "key's" | "account's"): unknown => ({
  error: { code: 'IP_NOT_ALLOWED', details: { info: `requests from 127.0.0.1 are not on the ${list} IP allow-list` } },
});

async function answer(res: Response): Promise<Answer> {
  return { status: res.status, body: await res.json() };
}

function hashV2(base: string, key: string, headers: Record<string, string> = {}): Promise<Answer> {
  return fetch(`${base}/v2/hash`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ data: 'abc' }),
  }).then(answer);
}

function hashV1(base: string, key: string, headers: Record<string, string> = {}): Promise<Answer> {
  return fetch(`${base}/v1/hash/text`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ text: 'abc' }),
  }).then(answer);
}

/** The socket.io connect_error's data (docs/realtime.md: the v2 error body); fails if it connected. */
async function socketIoRefusal(base: string, key: string, headers: Record<string, string> = {}): Promise<unknown> {
  try {
    (await connectSocketIo(base, { api_key: key }, { headers })).close();
  } catch (err) {
    return (err as { data?: unknown }).data;
  }
  throw new Error('socket.io connected');
}

/** Every way in refuses `key` on node `base`, each with IP_NOT_ALLOWED naming the peer 127.0.0.1. */
async function expectRefusedEverywhere(
  base: string,
  key: string,
  list: "key's" | "account's",
  headers: Record<string, string> = {},
): Promise<void> {
  expect(await hashV2(base, key, headers)).toEqual({ status: 403, body: v2Refusal('127.0.0.1', list) });
  expect(await hashV1(base, key, headers)).toMatchObject({ status: 403, body: v1Refusal(list) });
  expect(await refusedUpgrade(wsUrl(base, key), { headers })).toEqual({ status: 403, body: v2Refusal('127.0.0.1', list) });
  expect(await socketIoRefusal(base, key, headers)).toEqual(v2Refusal('127.0.0.1', list));
}

/** Every way in answers `key` on node `base`: the hash of "abc" over HTTP and /v2/ws, and a socket.io connection. */
async function expectAnsweredEverywhere(base: string, key: string): Promise<void> {
  expect(await hashV2(base, key)).toEqual({ status: 200, body: expect.objectContaining({ success: true, hash: ABC }) });
  expect(await hashV1(base, key)).toEqual({ status: 200, body: expect.objectContaining({ hash: ABC }) });
  const ws = await WsClient.open(wsUrl(base, key));
  expect(await ws.request({ action: 'hash', id: 'abc', data: 'abc' })).toMatchObject({ id: 'abc', success: true, hash: ABC });
  await ws.close();
  (await connectSocketIo(base, { api_key: key })).close();
}

describe('IP allow-lists on 2 API nodes sharing PostgreSQL', () => {
  let c: Cluster;
  /** A Pro account whose owner is signed in to node A's management API. */
  let accountId: string;
  let owner: { cookie: string; csrf: string };

  beforeAll(async () => {
    // No workers: every request here is answered inline by the API nodes.
    c = await startCluster({ apiNodes: 2, workers: 0 });
    accountId = (await c.store.createAccount({ name: 'allow-listed', plan: 'pro' })).id;
    const email = 'owner@allow-listed.example.com';
    const user = (await c.store.users.createUser({ email, name: 'Owner' }))!;
    await c.store.users.setPasswordHash(user.id, await hashPassword(OWNER_PASSWORD), new Date());
    await c.store.users.addMembership(accountId, user.id, 'owner');
    const signedIn = await fetch(`${c.url(0)}${routePath('signIn')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: c.url(0) },
      body: JSON.stringify({ email, password: OWNER_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    owner = {
      cookie: signedIn.headers.get('set-cookie')!.split(';')[0]!,
      csrf: ((await signedIn.json()) as { csrfToken: string }).csrfToken,
    };
  }, 60_000);
  afterAll(() => c?.close());

  /** A key of the signed-in owner's account (or a fresh Pro account's), written to the database as the embedded test does. */
  async function keyWith(options: { keyIps?: string[]; accountIps?: string[]; account?: string }): Promise<{ id: string; secret: string }> {
    const account = options.account ?? (await c.store.createAccount({ name: 'ip', plan: 'pro' })).id;
    if (options.accountIps) await c.store.keySettings.setAccountAllowedIps(account, options.accountIps);
    const { record, secret } = await createApiKey(c.store, {
      accountId: account,
      type: 'production',
      description: 'ip',
      allowedIps: options.keyIps ?? [],
    });
    return { id: record.id, secret };
  }

  /** A management API call on node A as the owner (cookie, CSRF token, same origin). */
  async function manage(method: 'PATCH' | 'PUT', path: string, body: unknown): Promise<Answer> {
    return answer(
      await fetch(`${c.url(0)}${path}`, {
        method,
        headers: { 'content-type': 'application/json', origin: c.url(0), cookie: owner.cookie, 'x-csrf-token': owner.csrf },
        body: JSON.stringify(body),
      }),
    );
  }

  /** Node B answers from its cache until the entry lapses, so poll it (bounded) rather than sleep. */
  async function nodeBTurnsTo(status: number, key: string): Promise<void> {
    await expect.poll(async () => (await hashV2(c.url(1), key)).status, { timeout: CROSS_NODE_BOUND_MS, interval: 100 }).toBe(status);
  }

  it("a key's list without 127.0.0.1 is refused by both nodes on v2, v1, /v2/ws and socket.io; 127.0.0.1/32 is answered", async () => {
    expect(ABC).toBe(sha224Hex('abc')); // the known answer, cross-checked with node:crypto
    const outside = await keyWith({ keyIps: ['203.0.113.7', '10.0.0.0/8'] });
    const inside = await keyWith({ keyIps: ['203.0.113.7', '127.0.0.1/32'] });
    for (const node of c.urls) {
      await expectRefusedEverywhere(node, outside.secret, "key's");
      await expectAnsweredEverywhere(node, inside.secret);
    }
  });

  it("the account's list is enforced by both nodes whatever the key's list says", async () => {
    const outside = await keyWith({ keyIps: ['127.0.0.0/8'], accountIps: ['10.0.0.0/8'] });
    const inside = await keyWith({ accountIps: ['10.0.0.0/8', '127.0.0.1/32'] });
    for (const node of c.urls) {
      await expectRefusedEverywhere(node, outside.secret, "account's");
      await expectAnsweredEverywhere(node, inside.secret);
    }
  });

  it('a forged X-Forwarded-For naming an allowed address changes nothing without TRUST_PROXY', async () => {
    const key = await keyWith({ keyIps: ['10.0.0.0/8'] });
    for (const node of c.urls) {
      await expectRefusedEverywhere(node, key.secret, "key's", { 'x-forwarded-for': '10.1.2.3' });
      await expectRefusedEverywhere(node, key.secret, "key's", { 'x-forwarded-for': '10.1.2.3', ...VIA_TLS_PROXY });
    }
  });

  it('a node started with TRUST_PROXY=loopback judges the address its proxy forwards', async () => {
    const proxied = await c.addApi({ TRUST_PROXY: 'loopback' });
    const key = await keyWith({ keyIps: ['10.0.0.0/8'] });
    const fromInside = { ...VIA_TLS_PROXY, 'x-forwarded-for': '10.1.2.3' };
    expect(await hashV2(proxied.url, key.secret, fromInside)).toEqual({ status: 200, body: expect.objectContaining({ hash: ABC }) });
    const ws = await WsClient.open(wsUrl(proxied.url, key.secret), { headers: fromInside });
    expect(await ws.request({ action: 'hash', id: 'p', data: 'abc' })).toMatchObject({ success: true, hash: ABC });
    await ws.close();
    const fromOutside = { ...VIA_TLS_PROXY, 'x-forwarded-for': '198.51.100.1' };
    expect(await hashV2(proxied.url, key.secret, fromOutside)).toEqual({ status: 403, body: v2Refusal('198.51.100.1', "key's") });
    expect(await refusedUpgrade(wsUrl(proxied.url, key.secret), { headers: fromOutside })).toEqual({
      status: 403,
      body: v2Refusal('198.51.100.1', "key's"),
    });
    // With no forwarded hop the socket's peer is the client, and 127.0.0.1 is outside the list.
    expect(await hashV2(proxied.url, key.secret, VIA_TLS_PROXY)).toEqual({ status: 403, body: v2Refusal('127.0.0.1', "key's") });
    // Only the hop the trusted proxy added counts, not an address the client put further left.
    expect((await hashV2(proxied.url, key.secret, { ...VIA_TLS_PROXY, 'x-forwarded-for': '10.1.2.3, 198.51.100.1' })).status).toBe(403);
  });

  it("a key's list edited through node A's management API refuses on A at once and on B within the key cache's lifetime", async () => {
    const key = await keyWith({ account: accountId });
    // Both nodes now hold the key's principal (with its empty list) in their caches.
    for (const node of c.urls) expect((await hashV2(node, key.secret)).status).toBe(200);
    const edited = await manage('PATCH', routePath('updateKey', { accountId, keyId: key.id }), { allowedIps: ['10.1.2.3/8'] });
    expect(edited).toMatchObject({ status: 200, body: { allowedIps: ['10.0.0.0/8'] } });
    expect(await hashV2(c.url(0), key.secret)).toEqual({ status: 403, body: v2Refusal('127.0.0.1', "key's") });
    await nodeBTurnsTo(403, key.secret);
    await expectRefusedEverywhere(c.url(1), key.secret, "key's");
  });

  it("the account's list widened through node A's management API lets A through at once and B within the key cache's lifetime", async () => {
    const put = (allowedIps: string[]) => manage('PUT', routePath('setAccountIpAllowList', { accountId }), { allowedIps });
    expect(await put(['10.0.0.0/8'])).toEqual({ status: 200, body: { allowedIps: ['10.0.0.0/8'] } });
    const key = await keyWith({ account: accountId });
    // Both nodes now hold the key's principal, with the account's list that refuses 127.0.0.1.
    for (const node of c.urls) expect(await hashV2(node, key.secret)).toEqual({ status: 403, body: v2Refusal('127.0.0.1', "account's") });
    expect(await put(['10.0.0.0/8', '127.0.0.1/32'])).toEqual({ status: 200, body: { allowedIps: ['10.0.0.0/8', '127.0.0.1'] } });
    expect(await hashV2(c.url(0), key.secret)).toEqual({ status: 200, body: expect.objectContaining({ hash: ABC }) });
    await nodeBTurnsTo(200, key.secret);
    await expectAnsweredEverywhere(c.url(1), key.secret);
  });
});
