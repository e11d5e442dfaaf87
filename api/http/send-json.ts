import type { Response } from 'express';

/**
 * A 200 JSON answer as Express's `res.json` writes it for this app (no replacer, spacing or
 * escaping set, ETag off, never HEAD: the hot routes are POST): the same Content-Type and
 * Content-Length, the same body, without the send machinery (freshness, ETag, charset lookup)
 * that has nothing to do for it.
 */
export function sendJson(res: Response, body: unknown): void {
  sendJsonText(res, JSON.stringify(body));
}

/** The same answer for JSON already serialised (api/http/receipt-body.ts builds its bytes from parts). */
export function sendJsonText(res: Response, json: string | Buffer): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}
