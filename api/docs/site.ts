/**
 * The docs site, mounted at /docs without credentials (a public document, docs/decisions.md):
 *   /docs                       the interactive API reference (Swagger UI over /openapi.json)
 *   /docs/guides, /docs/guides/<name>   the guides of docs/*.md
 *   /docs/assets/<file>         Swagger UI from node_modules, the site's stylesheet and script
 *   /docs/oauth2-redirect.html  Swagger UI's OAuth 2.0 redirect page
 * Pages are built once per process; unknown paths fall through to the 404 handler.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Config } from '../../shared/config.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import { loadAssets, sendAsset } from './assets.js';
import { loadGuides, type Guide } from './guides.js';
import { contentSecurityPolicy, guidePage, guidesIndexPage, referencePage } from './pages.js';

const METHODS = ['GET', 'HEAD'];

function sendPage(res: Response, html: string, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-cache');
  res.type('html').send(html);
}

/** `/docs`: the reference, the guides and their files. */
export function docsSite(config: Pick<Config, 'PUBLIC_URL'>): RequestHandler {
  const router = Router({ strict: false });
  const connectTo = config.PUBLIC_URL === undefined ? [] : [config.PUBLIC_URL];
  const referenceCsp = contentSecurityPolicy('reference', connectTo);
  const guideCsp = contentSecurityPolicy('guide');
  let assets: ReturnType<typeof loadAssets> | undefined;
  let guides: Promise<Guide[]> | undefined;
  let reference: string | undefined;
  const wrongMethod = methodNotAllowed(METHODS);

  router
    .route('/')
    .get((_req, res) => {
      reference ??= referencePage();
      sendPage(res, reference, referenceCsp);
    })
    .all(wrongMethod);
  router
    .route('/guides')
    .get(async (_req, res) => {
      guides ??= loadGuides();
      sendPage(res, guidesIndexPage(await guides), guideCsp);
    })
    .all(wrongMethod);
  router.get('/guides/:name', async (req: Request<{ name: string }>, res, next) => {
    guides ??= loadGuides();
    const all = await guides;
    const guide = all.find((g) => g.name === req.params.name);
    if (guide === undefined) next();
    else sendPage(res, guidePage(guide, all), guideCsp);
  });
  router
    .route('/oauth2-redirect.html')
    .get(async (req, res) => {
      assets ??= loadAssets();
      res.setHeader('Content-Security-Policy', referenceCsp);
      await sendAsset(assets.get('oauth2-redirect.html')!, req.headers['accept-encoding'], req.headers['if-none-match'], res);
    })
    .all(wrongMethod);
  router.get('/assets/:file', async (req: Request<{ file: string }>, res, next) => {
    assets ??= loadAssets();
    const found = assets.get(req.params.file);
    if (found === undefined) next();
    else await sendAsset(found, req.headers['accept-encoding'], req.headers['if-none-match'], res);
  });
  return router;
}
