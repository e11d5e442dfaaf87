/**
 * The exact-path dispatch (api/http/exact-routes.ts) answers `POST /v2/hash` without the Express
 * router; the same request with a query string goes through the router. Both must answer alike,
 * and log the same route.
 */
import express, { type RequestHandler } from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactDispatch } from '../../api/http/exact-routes.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC } from '../helpers/digests.js';

/** Headers that differ between any two answers. */
const PER_ANSWER = new Set(['date', 'x-request-id', 'content-length', 'keep-alive', 'connection']);
const PER_ANSWER_FIELDS = ['timestamp', 'processing_time_ms'];

async function answer(url: string, init: RequestInit): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
  const res = await fetch(url, init);
  const text = await res.text();
  const body = res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Record<string, unknown>) : text;
  if (typeof body === 'object' && body !== null) for (const field of PER_ANSWER_FIELDS) delete body[field];
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !PER_ANSWER.has(name)));
  return { status: res.status, headers, body };
}

describe('/v2 exact-path dispatch answers as the router does', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer();
    key = s.keys.production;
  });
  afterAll(() => s.close());

  const json = (body: string, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
    body,
  });

  it.each([
    ['hash', () => json('{"data":"abc"}'), 200],
    ['hash', () => json('{"data":"abc","output":"base64"}'), 200],
    ['hash', () => json('{"data":5}'), 400],
    ['hash', () => json('{"data":'), 400],
    ['hash', () => json('{"data":"abc"}', { 'content-encoding': 'gzip' }), 415],
    ['hash', () => json('{"data":"abc"}', { 'x-api-key': 'sk_not_a_key' }), 401],
    ['verify', () => json(`{"data":"abc","hash":"${SHA224_ABC}"}`), 200],
    ['hmac', () => json('{"data":"abc","key":"k"}'), 200],
    ['batch', () => json('{"items":[{"id":"a","data":"abc"}]}'), 200],
  ])('POST /v2/%s (%#)', async (endpoint, init, status) => {
    const exact = await answer(`${s.url}/v2/${endpoint}`, init());
    const routed = await answer(`${s.url}/v2/${endpoint}?via=router`, init());
    expect(exact.status).toBe(status);
    expect(exact).toEqual(routed);
  });

  it('logs the route template on both paths', async () => {
    await answer(`${s.url}/v2/hash`, json('{"data":"exact"}'));
    await answer(`${s.url}/v2/hash?via=router`, json('{"data":"routed"}'));
    const lines = s
      .logs()
      .split('\n')
      .filter((line) => line.includes('"msg":"request"') && line.includes('/v2/hash'))
      .map((line) => JSON.parse(line) as { route?: string; path?: string });
    const last = lines.slice(-2);
    expect(last.map((l) => l.route)).toEqual(['/v2/hash', '/v2/hash']);
  });
});

describe('exactDispatch', () => {
  async function serve(handler: RequestHandler, before: RequestHandler[] = []): Promise<{ url: string; close: () => void }> {
    const app = express();
    const calls: string[] = [];
    const dispatch = exactDispatch({
      prefix: '/p',
      common: [...before, (_req, _res, next) => (calls.push('common'), next())],
      routes: [
        { method: 'post', path: '/r', route: { path: '/r' }, handlers: [handler] },
        { method: 'post', path: '/:id', route: { path: '/:id' }, handlers: [handler] },
        { method: 'get', path: '/g', route: { path: '/g' }, handlers: [handler] },
      ],
      onError: (err: Error, _req, res, _next) => res.status(500).json({ error: err.message, calls }),
      passed: (_req, res) => res.status(404).json({ passed: true, calls }),
    });
    app.use(dispatch);
    app.use((req, res) => res.status(299).json({ router: req.url }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
  }

  it('sets what the router would and runs common handlers first', async () => {
    const app = await serve((req, res) => {
      res.json({ baseUrl: req.baseUrl, url: req.url, route: (req.route as { path: string }).path, params: req.params });
    });
    const res = await fetch(`${app.url}/p/r`, { method: 'POST' });
    expect(await res.json()).toEqual({ baseUrl: '/p', url: '/r', route: '/r', params: {} });
    app.close();
  });

  it('leaves to the router what is not exactly a static non-GET route', async () => {
    const app = await serve((_req, res) => res.json({ exact: true }));
    for (const [method, path] of [
      ['POST', '/p/r?x=1'],
      ['POST', '/p/r/'],
      ['POST', '/P/r'],
      ['POST', '/p/other'],
      ['GET', '/p/g'],
      ['PUT', '/p/r'],
    ] as const) {
      const res = await fetch(`${app.url}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(299);
    }
    app.close();
  });

  it('sends a thrown or rejected error to the error handler, and a passed request to `passed`', async () => {
    const thrown = await serve(() => {
      throw new Error('boom');
    });
    expect(await (await fetch(`${thrown.url}/p/r`, { method: 'POST' })).json()).toEqual({ error: 'boom', calls: ['common'] });
    thrown.close();
    const rejected = await serve(() => Promise.reject(new Error('later')));
    expect(await (await fetch(`${rejected.url}/p/r`, { method: 'POST' })).json()).toEqual({ error: 'later', calls: ['common'] });
    rejected.close();
    const passing = await serve((_req, _res, next) => next());
    const res = await fetch(`${passing.url}/p/r`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ passed: true, calls: ['common'] });
    passing.close();
  });
});
