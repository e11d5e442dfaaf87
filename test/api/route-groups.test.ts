/**
 * A group of a route table loaded on the first request under its prefixes (api/http/route-table.ts
 * RouteGroup; the bulk, resumable upload and proof routes of /v2): before and after it loads, a
 * request is answered as by routes mounted at start (the route, a 405 with Allow, the 404 after
 * it, Express's case-insensitive and trailing-slash matching), and a request elsewhere never loads it.
 */
import { listenOnLoopback, type Listening } from '../helpers/listen.js';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../api/http/error-handler.js';
import { mountRouteGroup, mountRoutes, type Route, type TableContext } from '../../api/http/route-table.js';
import { createLogger } from '../../shared/log.js';

type Ctx = TableContext<'public'>;
const doc = { operationId: 'x', summary: 'x' } as unknown as Route<'public', Ctx>['doc'];
const route = (method: 'get' | 'post', path: string): Route<'public', Ctx> => ({
  method,
  path,
  permission: 'public',
  handle: (_ctx, req, res) => {
    res.json({ route: `${req.method} ${req.baseUrl}${String((req.route as { path: string }).path)}`, params: req.params });
  },
  doc,
});

describe('a route group loaded on first use', () => {
  let loads = 0;
  const ctx: Ctx = { guard: () => [] };
  const router = express.Router();
  mountRoutes(router, [route('post', '/hash')], ctx);
  mountRouteGroup(
    router,
    {
      name: 'the test group',
      prefixes: ['/bulk'],
      load: () => {
        loads += 1;
        return Promise.resolve([route('post', '/bulk'), route('get', '/bulk/:id')]);
      },
    },
    ctx,
    createLogger('silent'),
  );
  router.use((_req, res) => {
    res.status(404).json({ unknown: true });
  });
  const app = express();
  app.use('/v2', router);
  app.use(errorHandler({ logger: createLogger('silent') }));
  let served: Listening;
  let base: string;
  beforeAll(async () => {
    served = await listenOnLoopback(app);
    base = served.url;
  });
  afterAll(() => served.close());

  it('a request outside its prefixes does not load it', async () => {
    expect((await fetch(`${base}/v2/hash`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${base}/v2/bulkhead`)).status).toBe(404);
    expect(loads).toBe(0);
  });

  it('its first request gets a 405 with Allow, as a route mounted at start would, and loads it once', async () => {
    const res = await fetch(`${base}/v2/bulk`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(loads).toBe(1);
  });

  it('its routes see the path, base and route of a route mounted at start; case and a trailing slash match as in Express', async () => {
    for (const [path, expected] of [
      ['/v2/bulk/abc', { route: 'GET /v2/bulk/:id', params: { id: 'abc' } }],
      ['/v2/BULK/abc/', { route: 'GET /v2/bulk/:id', params: { id: 'abc' } }],
    ] as const) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(expected);
    }
    expect((await fetch(`${base}/v2/bulk/abc/more`)).status).toBe(404);
    expect(loads).toBe(1);
  });

  it('refuses at load a route outside its prefixes', async () => {
    const outside = express.Router();
    mountRouteGroup(
      outside,
      { name: 'a wrong group', prefixes: ['/bulk'], load: () => Promise.resolve([route('get', '/jobs/:id')]) },
      ctx,
      createLogger('silent'),
    );
    const handler = (outside as unknown as { stack: Array<{ handle: { load: () => Promise<unknown> } }> }).stack[0]!.handle;
    await expect(handler.load()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
