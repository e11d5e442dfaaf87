/**
 * The method and CORS handling every public, credential-free resource shares (docs/decisions.md:
 * `/openapi.json` and `/sdk/*` need no credentials; `/sdk/*` is readable from any origin): any page
 * may load it (`Access-Control-Allow-Origin: *`, and `Cross-Origin-Resource-Policy: cross-origin`
 * for cross-origin module scripts and COEP pages), a CORS preflight is answered 204, and any
 * method but GET and HEAD is 405 with `Allow`.
 */
import type { Request, RequestHandler, Response } from 'express';
import { methodNotAllowed } from './method-not-allowed.js';

const METHODS = ['GET', 'HEAD'];

/**
 * `find` picks what a request asks for; undefined means the path is not this resource's and the
 * request falls through (`next`). `send` writes the answer to a GET or HEAD for what was found;
 * preflights and other methods never reach it.
 */
export function publicResource<Found>(
  find: (req: Request) => Found | undefined,
  send: (req: Request, res: Response, found: Found) => void,
): RequestHandler {
  const wrongMethod = methodNotAllowed(METHODS);
  return function servePublicResource(req, res, next) {
    const found = find(req);
    if (found === undefined) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', METHODS.join(', '));
      res.setHeader('Access-Control-Max-Age', '86400');
      res.status(204).end();
      return;
    }
    if (!METHODS.includes(req.method)) {
      wrongMethod(req, res, next);
      return;
    }
    send(req, res, found);
  };
}
