/**
 * The dashboard's pages on the API node: `/dashboard/assets/*` (content-hashed, cached for a year,
 * brotli or gzip when the browser takes it) and the one page shell for every other `/dashboard/*`
 * path: with 200 for a page's path, with 404 for any other, whose not-found page the shell's router
 * renders (so a mistyped link reads as missing to people and to tools alike). Everything runs under DASHBOARD_CSP: nothing inline, nothing from elsewhere, never framed
 * (docs/decisions.md "Dashboard and accounts"). Without a build, each page says how to make one.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { isPagePath } from './web/src/paths.js';

export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

/**
 * Page headers. `Referrer-Policy: same-origin`, not `no-referrer`: under no-referrer a browser sends
 * `Origin: null` on same-origin POSTs (Fetch standard, "append a request Origin header"), which the
 * CSRF check (api/sessions/csrf.ts) would refuse.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};
const ASSET_RE = /^[a-z]+\.[0-9a-f]{12}\.(?:js|css|svg)$/;

export const NOT_BUILT_MESSAGE = 'The dashboard is not built on this server. Run `npm run build` (npm start does it), then reload.';

function setHeaders(res: Response): void {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
}

/** Serves `distDir` (dist/dashboard); read when first asked, so a build made after start is picked up. */
export function dashboardPages(distDir: string): Router {
  let shell: Buffer | undefined;
  const router = express.Router();

  router.get('/assets/:file', (req: Request, res: Response) => {
    const file = String(req.params.file);
    const full = path.join(distDir, 'assets', file);
    setHeaders(res);
    if (!ASSET_RE.test(file) || !existsSync(full)) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    const accepts = req.get('accept-encoding') ?? '';
    const encoding =
      /\bbr\b/.test(accepts) && existsSync(`${full}.br`) ? 'br' : /\bgzip\b/.test(accepts) && existsSync(`${full}.gz`) ? 'gzip' : undefined;
    res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.send(readFileSync(encoding === 'br' ? `${full}.br` : encoding === 'gzip' ? `${full}.gz` : full));
  });

  router.get(/^(?!\/api(?:\/|$)).*/, (req: Request, res: Response) => {
    setHeaders(res);
    res.setHeader('Cache-Control', 'no-cache');
    if (!shell && existsSync(path.join(distDir, 'index.html'))) shell = readFileSync(path.join(distDir, 'index.html'));
    if (!shell) {
      res.status(503).type('text/plain; charset=utf-8').send(`${NOT_BUILT_MESSAGE}\n`);
      return;
    }
    res
      .status(isPagePath(req.path.replace(/\/+$/, '')) ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(shell);
  });
  return router;
}
