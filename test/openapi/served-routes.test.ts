/**
 * Every route the node serves is in /openapi.json, and every operation there is served: the test
 * walks the Express stack of a fully built node (createApp with its mounts, OAuth on, METRICS_TOKEN
 * set), loading its lazy parts (the management API, OAuth, the documents), and compares each
 * method and path it finds with the served document. A route added without documentation, or a
 * tree mounted outside the one list of non-API trees (api/service-routes.ts), fails here.
 */
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NON_API_TREES } from '../../api/service-routes.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';

interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle: ((...args: never[]) => unknown) & { stack?: Layer[]; load?: () => Promise<{ stack?: Layer[] }> };
}

/** A method and a path the node serves: `ALL` for a handler answering every method (a 405, a public document). */
interface Served {
  method: string;
  path: string;
}

const NON_API: readonly string[] = Object.values(NON_API_TREES);

/** Every route below `stack`, mounts followed (lazy ones loaded); the non-API trees are left out. */
async function walk(stack: readonly Layer[], prefix: string, out: Served[]): Promise<Served[]> {
  for (const layer of stack) {
    if (layer.route) {
      const path = prefix + String(layer.route.path);
      const methods = Object.keys(layer.route.methods).filter((m) => m !== '_all');
      if (layer.route.methods._all === true) methods.push('ALL');
      for (const method of methods) out.push({ method: method.toUpperCase(), path });
      continue;
    }
    // An error handler (four parameters) answers only the failures of the routes before it.
    if (layer.handle.length === 4) continue;
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? prefix + layer.rawPath : undefined;
    if (mount !== undefined && NON_API.includes(mount)) continue;
    const inner = typeof layer.handle.load === 'function' ? await layer.handle.load() : layer.handle;
    if (Array.isArray(inner.stack)) await walk(inner.stack, mount ?? prefix, out);
    // A handler of its own below a path: a tree nothing here can list, so it must be declared.
    else if (mount !== undefined) out.push({ method: 'ALL', path: `${mount}/*` });
    // Middleware at `/` (the common handlers, /v2's exact-path dispatch of its own table, the 404s) serves no path of its own.
  }
  return out;
}

function stackOf(app: Express): Layer[] {
  return (app as unknown as { router: { stack: Layer[] } }).router.stack;
}

/** `/jobs/:id` and `/jobs/{id}` → `/jobs/{}`, split in segments. */
function segments(path: string): string[] {
  return path
    .replace(/[:*]\w+|\{\w+\}/g, '{}')
    .split('/')
    .slice(1);
}

/** Does served `pattern` answer documented `path`: equal segments, a parameter matching any one. */
function answers(pattern: string, path: string): boolean {
  const p = segments(pattern);
  const d = segments(path);
  return p.length === d.length && p.every((s, i) => s === '{}' || s === d[i]);
}

type Doc = { paths: Record<string, Record<string, unknown>> };
const METHODS = ['get', 'head', 'put', 'post', 'delete', 'patch'];

function documented(doc: Doc): Served[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((m) => ({ method: m.toUpperCase(), path })),
  );
}

/** The served routes the document does not list. */
function undocumented(served: readonly Served[], doc: Doc): string[] {
  const ops = documented(doc);
  const same = (a: string, b: string) => segments(a).join('/') === segments(b).join('/');
  return served
    .filter(({ method, path }) => !ops.some((op) => same(op.path, path) && (method === 'ALL' || method === op.method)))
    .map(({ method, path }) => `${method} ${path}`);
}

/** The documented operations nothing serves. */
function unserved(served: readonly Served[], doc: Doc): string[] {
  return documented(doc)
    .filter((op) => !served.some(({ method, path }) => (method === 'ALL' || method === op.method) && answers(path, op.path)))
    .map(({ method, path }) => `${method} ${path}`);
}

describe('the routes the node serves and /openapi.json', () => {
  let s: TestServer;
  let app: Express | undefined;
  let doc: Doc;
  let served: Served[];
  beforeAll(async () => {
    s = await startTestServer({ env: { METRICS_TOKEN: 'metrics-token-for-the-walk' }, onApp: (built) => (app = built) });
    const res = await fetch(`${s.url}/openapi.json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
    served = await walk(stackOf(app!), '', []);
  });
  afterAll(() => s?.close());

  it('finds the routes of every table: /v1, /v2, the management API, OAuth, the service routes', () => {
    const found = new Set(served.map(({ method, path }) => `${method} ${path}`));
    for (const route of [
      'POST /v2/hash',
      'GET /v2/jobs/:id',
      'POST /v1/hash',
      'POST /dashboard/api/session',
      'DELETE /dashboard/api/accounts/:accountId/jwt-keys/:kid',
      'POST /oauth/token',
      'GET /oauth/authorize',
      'GET /.well-known/oauth-authorization-server',
      'GET /healthz',
      'GET /metrics',
      'ALL /openapi.json',
      'ALL /sdk/:asset',
    ]) {
      expect(found, route).toContain(route);
    }
    expect(served.length).toBeGreaterThan(70);
  });

  it('serves nothing the document does not list', () => {
    expect(undocumented(served, doc)).toEqual([]);
  });

  it('lists nothing the node does not serve', () => {
    expect(unserved(served, doc)).toEqual([]);
  });

  it('would fail for a route or a tree added without documentation', async () => {
    const extra = express();
    extra.get('/v2/undocumented', (_req, res) => res.end());
    extra.use('/files', (_req, res) => res.end());
    const router = express.Router();
    router.post('/thing/:id', (_req, res) => res.end());
    extra.use('/dashboard/api', router);
    expect(undocumented(await walk(stackOf(extra), '', []), doc)).toEqual([
      'GET /v2/undocumented',
      'ALL /files/*',
      'POST /dashboard/api/thing/:id',
    ]);
    expect(unserved([], doc).length).toBe(documented(doc).length);
  });
});
