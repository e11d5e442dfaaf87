/**
 * The sandbox (docs/api.md "Overview"): requests to the sandbox host work fully
 * but count in separate usage that never touches production's; /v1/usage and /v1/status on the
 * sandbox report sandbox figures; /v2 is not served there. node:http is used because fetch
 * does not let a caller set Host.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson } from '../helpers/api-server.js';
import { ONE_NODE_CLUSTER, startTarget, TARGETS, type Target } from '../helpers/targets.js';
import { sha224Hex } from '../helpers/digests.js';

const SANDBOX_HOST = 'sandbox.localhost';

interface Reply {
  status: number;
  body: any;
}

describe.each(TARGETS)('/v1 on the sandbox host on %s', (target) => {
  let s: Target;
  beforeAll(async () => {
    s = await startTarget(target, { SANDBOX_HOST }, ONE_NODE_CLUSTER);
  });
  afterAll(() => s.close());

  /** A request to the test server carrying `Host: sandbox.localhost`. */
  function sandbox(method: 'GET' | 'POST', path: string, key: string, body?: unknown): Promise<Reply> {
    const url = new URL(path, s.url);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method,
          headers: { host: SANDBOX_HOST, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  it('refuses "log": true, since a leaf is public and permanent (docs/decisions.md "Proof of existence")', async () => {
    const secret = await s.newKey({ plan: 'free' });
    const r = await sandbox('POST', '/v1/hash/url', secret, { url: 'http://127.0.0.1:9/never-fetched', log: true });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'INVALID_INPUT', details: { info: 'field: log' } } });
  });

  it('serves v1 fully and counts sandbox requests apart from production', async () => {
    const secret = await s.newKey({ plan: 'free' });
    const prod = { authorization: `Bearer ${secret}` };
    await postJson(`${s.url}/v1/hash`, { data: 'warm-up' }, prod);
    const before = await getJson(`${s.url}/v1/usage`, prod);
    // The warm-up only: reading usage is outside the daily quota (docs/limits.md "Headers and errors").
    expect(before.body.account.quota.used).toBe(1);

    for (const data of ['a', 'b', 'c']) {
      const r = await sandbox('POST', '/v1/hash', secret, { data });
      expect(r.status).toBe(200);
      expect(r.body.hash).toBe(sha224Hex(data));
    }
    const text = await sandbox('POST', '/v1/hash/text', secret, { text: 'abc' });
    expect(text.body.input_length).toBe(3);

    // The sandbox's own usage: the 4 requests above; same plan limits.
    const sandboxUsage = await sandbox('GET', '/v1/usage', secret);
    expect(sandboxUsage.status).toBe(200);
    expect(sandboxUsage.body.account).toMatchObject({ tier: 'Free', quota: { daily: 1000, used: 4, remaining: 996 } });
    const sandboxStatus = await sandbox('GET', '/v1/status', secret);
    expect(sandboxStatus.body.account).toMatchObject({ plan: 'free', requests_today: 4, requests_quota: 1000 });
    // Set B requests on the sandbox: /hash/text and /status.
    expect(sandboxStatus.body.rate_limit).toMatchObject({ limit: 10 });

    // Production: unchanged by the sandbox.
    const after = await getJson(`${s.url}/v1/usage`, prod);
    expect(after.body.account.quota.used).toBe(1);
    const status = await getJson(`${s.url}/v1/status`, prod);
    expect(status.body.account.requests_today).toBe(1);
  });

  it("keeps its own rate windows: exhausting the sandbox's Set B rate leaves production's alone", async () => {
    // free plan, development key: Set B 2 requests per minute.
    const secret = await s.newKey({ plan: 'free', type: 'development' });
    let refused: Reply | undefined;
    for (let i = 0; i < 8 && !refused; i++) {
      const r = await sandbox('POST', '/v1/hash/text', secret, { text: 'x' });
      if (r.status === 429) refused = r;
    }
    expect(refused?.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    const prod = await postJson(`${s.url}/v1/hash/text`, { text: 'x' }, { authorization: `Bearer ${secret}` });
    expect(prod.status).toBe(200);
  });

  it('serves nothing but /v1 and the probes: /v2 and /oauth are 404 in the v2 body', async () => {
    for (const [method, path] of [
      ['POST', '/v2/hash'],
      ['POST', '/oauth/token'],
      ['GET', '/v1x'],
    ] as const) {
      const r = await sandbox(method, path, s.keys.production, method === 'POST' ? { data: 'abc' } : undefined);
      expect(r.status, path).toBe(404);
      expect(r.body, path).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
    expect((await sandbox('GET', '/healthz', s.keys.production)).status).toBe(200);
  });

  it('answers unknown sandbox endpoints with the v1 JSON 404', async () => {
    const r = await sandbox('GET', '/v1/nope', s.keys.production);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
    expect(r.body.success).toBeUndefined();
  });
});
