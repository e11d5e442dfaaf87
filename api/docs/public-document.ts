/**
 * Serves one public machine-readable document (no credentials, docs/decisions.md): any origin may
 * read it (`Access-Control-Allow-Origin: *`, so a docs page or a tool hosted elsewhere can load
 * it), and it is revalidated by ETag. GET, HEAD and CORS preflights only.
 */
import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { publicResource } from '../http/public-resource.js';

export interface PublicJsonOptions {
  /** Request headers the document depends on (the `Vary` header), e.g. Host when it names the origin asked. */
  vary?: string;
  type?: string;
}

/**
 * The handler of a document's route (api/service-routes.ts), answering every method on its path.
 * `build` runs per request, so keep it cheap.
 */
export function publicJson(
  build: (req: Request) => unknown,
  { vary, type = 'application/json; charset=utf-8' }: PublicJsonOptions = {},
): RequestHandler {
  return publicResource(
    () => build,
    function sendPublicJson(req, res, buildDocument) {
      const body = Buffer.from(JSON.stringify(buildDocument(req)));
      const etag = `"${createHash('sha224').update(body).digest('hex').slice(0, 32)}"`;
      if (vary !== undefined) res.setHeader('Vary', vary);
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.setHeader('ETag', etag);
      if (req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag) === true) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Length', body.length);
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  );
}
