import type { Response } from 'express';

/**
 * A 200 JSON answer as Express's `res.json` writes it for this app (no replacer, spacing or
 * escaping set, ETag off, never HEAD: the hot routes are POST): the same Content-Type and
 * Content-Length, the same body, without the send machinery (freshness, ETag, charset lookup)
 * that has nothing to do for it.
 */
export function sendJson(res: Response, body: unknown): void {
  const text = JSON.stringify(body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
