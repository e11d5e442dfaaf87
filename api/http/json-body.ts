import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';
import { assertIdentityEncoding, takeBody } from '../uploads/request-body.js';

export interface JsonBodyOptions {
  /** MAX_JSON_BYTES: larger bodies are 413 PAYLOAD_TOO_LARGE. */
  limitBytes: number;
  /** UPLOAD_DRAIN_MAX_BYTES: how much of a refused body is still read so the 413 can be. */
  drainMaxBytes: number;
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
/** JSON text must be an object or an array here (strict, as body-parser's `strict`). */
const FIRST_TOKEN = /^[ \t\n\r]*([^ \t\n\r])/;

function notJson(cause?: unknown): ServiceError {
  return new ServiceError('INVALID_INPUT', { message: 'Request body is not valid JSON', details: 'field: body', cause });
}

function tooLarge(limitBytes: number): ServiceError {
  return new ServiceError('PAYLOAD_TOO_LARGE', { details: `maximum size is ${limitBytes} bytes` });
}

function parseStrict(text: string): unknown {
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (unmarked.length === 0) return {};
  const first = FIRST_TOKEN.exec(unmarked)?.[1];
  if (first !== '{' && first !== '[') throw notJson();
  try {
    return JSON.parse(unmarked) as unknown;
  } catch (err) {
    throw notJson(err);
  }
}

/**
 * JSON bodies, whatever Content-Type a client sent (these endpoints only speak JSON), read
 * through the one body path (api/uploads/request-body.ts): Content-Encoding other than identity
 * is 415, a charset other than UTF-8 is 415, past `limitBytes` is 413 (and the rest is discarded
 * up to the drain bound), anything but a JSON object or array is 400. With an Idempotency-Key the
 * raw body's SHA-224 is kept for the request's fingerprint.
 */
export function jsonBody(options: JsonBodyOptions): RequestHandler {
  return async function readJsonBody(req, res, next) {
    const body = takeBody(req, res, { drainMaxBytes: options.drainMaxBytes, digest: req.headers['idempotency-key'] !== undefined });
    try {
      assertIdentityEncoding(req);
      const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', { message: 'JSON bodies must be UTF-8', details: 'header: content-type' });
      }
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > options.limitBytes) throw tooLarge(options.limitBytes);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of body.stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > options.limitBytes) throw tooLarge(options.limitBytes);
        chunks.push(chunk);
      }
      req.body = parseStrict(Buffer.concat(chunks, size).toString('utf8'));
      res.locals.bodyDigest = body.digest();
    } catch (err) {
      body.discardRest();
      throw err;
    }
    next();
  };
}
