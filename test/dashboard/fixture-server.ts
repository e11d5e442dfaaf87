/**
 * A test-only server for looking at the dashboard before the API node serves it: the built files
 * under /dashboard with the production Content-Security-Policy, and the management API answered
 * from fixtures.ts. It enforces what the real server will: a session for every route but the
 * public ones, the CSRF header on every method but GET, request bodies and every answer validated
 * against the contract (an answer that does not match is a 500 the test sees).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { loadConsentTemplate, renderConsentPage } from '../../api/dashboard/consent-page.js';
import { MANAGEMENT_CONTRACT } from '../../api/management/contract.js';
import { MANAGEMENT_BASE, MANAGEMENT_ROUTES, type RouteName } from '../../api/management/routes.js';
import { ACCOUNT_ID, CSRF_TOKEN, fixtures } from './fixtures.js';

export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'";
export const FIXTURE_PASSWORD = 'correct horse battery';
export const NEW_KEY_SECRET = 's224_Nw4xY7zQ1rT5uV8wX2yZ3aB6cD9eF0gH1iJ2kL';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
};

export interface FixtureServer {
  origin: string;
  /** Every management call received, in order. */
  calls: Array<{ name: RouteName; body: unknown }>;
  /** Answers that failed their own contract (must stay empty). */
  contractErrors: string[];
  close(): Promise<void>;
}

const patterns = (Object.keys(MANAGEMENT_ROUTES) as RouteName[]).map((name) => {
  const route = MANAGEMENT_ROUTES[name];
  const re = new RegExp(`^${MANAGEMENT_BASE}${route.path.replace(/\{\w+\}/g, '([^/]+)').replaceAll('.', '\\.')}$`);
  return { name, method: route.method, re };
});

export async function startFixtureServer(distDir: string, options: { signedIn?: boolean } = {}): Promise<FixtureServer> {
  let signedIn = options.signedIn ?? true;
  const data = fixtures();
  const calls: FixtureServer['calls'] = [];
  const contractErrors: string[] = [];

  function json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  }
  function fail(res: ServerResponse, status: number, code: string, message: string): void {
    json(res, status, { success: false, error: { code, message } });
  }

  function answer(name: RouteName, body: Record<string, unknown>): unknown {
    const keys = data.listKeys!.keys;
    switch (name) {
      case 'signIn':
        if (body.password !== FIXTURE_PASSWORD)
          throw Object.assign(new Error('Email or password is incorrect'), { status: 401, code: 'UNAUTHORIZED' });
        signedIn = true;
        return data.me;
      case 'setPassword':
        signedIn = true;
        return data.me;
      case 'signOut':
      case 'endAllSessions':
        signedIn = false;
        return name === 'signOut' ? { ok: true } : { ended: 2 };
      case 'createKey': {
        const now = new Date().toISOString();
        const key = {
          id: `key_new_${keys.length}`,
          prefix: NEW_KEY_SECRET.slice(0, 12),
          type: body.type as 'client',
          description: String(body.description),
          allowedDomains: (body.allowedDomains as string[] | undefined) ?? [],
          allowedIps: (body.allowedIps as string[] | undefined) ?? [],
          createdAt: now,
          lastUsedAt: null,
          expiresAt: (body.expiresAt as string | null | undefined) ?? null,
          revokedAt: null,
          status: 'active' as const,
          replacedBy: null,
        };
        keys.unshift(key);
        return { key, secret: NEW_KEY_SECRET };
      }
      case 'usage': {
        // The last `days` days, as the server answers (the fixture holds 30).
        const usage = data.usage!;
        const n = Number(body.days ?? usage.days.length);
        const days = usage.days.slice(-n);
        const credentials = usage.credentials.map((c) => {
          const perDay = c.perDay.slice(-n);
          return { ...c, perDay, total: perDay.reduce((a, b) => a + b, 0) };
        });
        return { ...usage, from: days[0]!.day, days, credentials: credentials.filter((c) => c.total > 0) };
      }
      case 'revokeKey': {
        const key = keys.find((k) => k.id === body.keyId)!;
        Object.assign(key, { status: 'revoked', revokedAt: new Date().toISOString() });
        return key;
      }
      default: {
        const schema = MANAGEMENT_CONTRACT[name].response;
        if (schema !== 'csv' && 'shape' in schema && 'ok' in (schema.shape as object)) return { ok: true };
        const get = data[name];
        if (get === undefined) throw Object.assign(new Error(`no fixture for ${name}`), { status: 501, code: 'NOT_IMPLEMENTED' });
        return get;
      }
    }
  }

  async function api(req: IncomingMessage, res: ServerResponse, pathname: string, search: URLSearchParams): Promise<void> {
    const match = patterns.map((p) => ({ p, m: p.re.exec(pathname) })).find(({ p, m }) => m && p.method === req.method);
    if (!match) return fail(res, 404, 'NOT_FOUND', 'Resource or endpoint does not exist');
    const { name } = match.p;
    const entry = MANAGEMENT_CONTRACT[name];
    if (entry.auth !== 'none' && !signedIn) return fail(res, 401, 'UNAUTHORIZED', 'Sign in first');
    if (req.method !== 'GET' && entry.auth !== 'none' && req.headers['x-csrf-token'] !== CSRF_TOKEN)
      return fail(res, 403, 'FORBIDDEN', 'CSRF token missing');
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const body: unknown = raw === '' ? undefined : JSON.parse(raw);
    if ('body' in entry) {
      const parsed = entry.body.safeParse(body);
      if (!parsed.success)
        return fail(res, 400, 'INVALID_INPUT', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    }
    if ('query' in entry && !entry.query.safeParse(Object.fromEntries(search)).success) return fail(res, 400, 'INVALID_INPUT', 'bad query');
    const params = match.m!.slice(1).map(decodeURIComponent);
    if (params[0] !== undefined && entry.auth === 'account' && params[0] !== ACCOUNT_ID && params[0] !== 'acc_side')
      return fail(res, 404, 'NOT_FOUND', 'No such account');
    calls.push({ name, body });
    if (entry.response === 'csv') {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end('day,total\r\n2030-05-20,42\r\n');
      return;
    }
    try {
      const out = answer(name, { ...(body as Record<string, unknown>), keyId: params[1], days: search.get('days') ?? undefined });
      const checked = entry.response.safeParse(out);
      if (!checked.success) contractErrors.push(`${name}: ${checked.error.message}`);
      json(res, checked.success ? 200 : 500, out);
    } catch (err) {
      const e = err as Error & { status?: number; code?: string };
      fail(res, e.status ?? 500, e.code ?? 'INTERNAL_ERROR', e.message);
    }
  }

  function serveFile(res: ServerResponse, file: string): void {
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    res.setHeader('content-security-policy', DASHBOARD_CSP);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'same-origin');
    if (url.pathname.startsWith(`${MANAGEMENT_BASE}/`)) {
      api(req, res, url.pathname, url.searchParams).catch((err: unknown) => fail(res, 500, 'INTERNAL_ERROR', String(err)));
      return;
    }
    if (url.pathname.startsWith('/dashboard/assets/')) return serveFile(res, path.join(distDir, 'assets', path.basename(url.pathname)));
    if (url.pathname === '/oauth/authorize') {
      const page = renderConsentPage(loadConsentTemplate(path.join(distDir, 'consent.html')), {
        appName: url.searchParams.get('app') ?? 'Release checker',
        accountName: 'Acme Labs',
        userEmail: 'ada@acme.example',
        redirectUri: 'https://release.acme.example/oauth/callback',
        scopes: ['hash:create', 'hash:verify', 'usage:read'],
        action: '/oauth/authorize',
        fields: { client_id: 's224c_q0Vn3d0yQyWc2lR1m8x4b9KkzP5rT7sUaGhJ2eLfN6o', state: 'xyz"<>', response_type: 'code' },
        csrfToken: CSRF_TOKEN,
      });
      res.setHeader('content-security-policy', page.contentSecurityPolicy);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
      return;
    }
    if (url.pathname === '/dashboard' || url.pathname.startsWith('/dashboard/')) return serveFile(res, path.join(distDir, 'index.html'));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    calls,
    contractErrors,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
