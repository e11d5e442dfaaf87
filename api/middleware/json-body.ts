import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
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
 * through the one body path (api/uploads/request-body.ts) unless it has already arrived whole
 * (readBuffered below): Content-Encoding other than identity is 415, a charset other than UTF-8
 * is 415, past `limitBytes` is 413 (and the rest is discarded up to the drain bound), anything
 * but a JSON object or array is 400. With an Idempotency-Key the
 * raw body's SHA-224 is kept for the request's fingerprint.
 */
export function jsonBody(options: JsonBodyOptions): RequestHandler {
  const checkHeaders = (req: Request): void => {
    assertIdentityEncoding(req);
    const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', { message: 'JSON bodies must be UTF-8', details: 'header: content-type' });
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > options.limitBytes) throw tooLarge(options.limitBytes);
  };

  /**
   * Every byte the request declared has already arrived and nobody has read it (the usual small
   * request, parsed with its headers; `complete` only turns true a little later): it is taken
   * from the request's buffer at once, with no stream, listener or promise in between, then the
   * request is resumed so it ends as a consumed one does. A refused one is left unread: Node
   * discards an unread body when the response ends, as the streamed path's discardRest does
   * within its bound.
   */
  const readBuffered = (req: Request, res: Response): void => {
    checkHeaders(req);
    const chunks: Buffer[] = [];
    let size = 0;
    for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
      size += chunk.length;
      chunks.push(chunk);
    }
    req.resume();
    if (size > options.limitBytes) throw tooLarge(options.limitBytes);
    const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    req.body = parseStrict(raw.toString('utf8'));
    if (req.headers['idempotency-key'] !== undefined) res.locals.bodyDigest = createHash('sha224').update(raw).digest('hex');
  };

  /** Whether the body's declared length is all in the request's unread buffer. */
  const arrivedWhole = (req: Request): boolean => {
    if (req.readableFlowing !== null || req.destroyed || req.headers['transfer-encoding'] !== undefined) return false;
    const declared = req.headers['content-length'];
    return declared !== undefined && Number(declared) === req.readableLength;
  };

  const readStreamed = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const body = takeBody(req, res, { drainMaxBytes: options.drainMaxBytes, digest: req.headers['idempotency-key'] !== undefined });
    try {
      checkHeaders(req);
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

  /**
   * Once the chunk being parsed has been pushed: a handler chain that awaited nothing runs while
   * Node's HTTP parser is still inside the chunk that held the headers, before it pushes the body
   * bytes that followed them in that chunk. process.nextTick runs after the parser returns.
   */
  const afterParse = (req: Request, res: Response, next: NextFunction): void => {
    if (!arrivedWhole(req)) {
      readStreamed(req, res, next).then(undefined, next);
      return;
    }
    try {
      readBuffered(req, res);
    } catch (err) {
      return next(err);
    }
    next();
  };

  return function readJsonBody(req, res, next) {
    if (arrivedWhole(req)) {
      readBuffered(req, res);
      return next();
    }
    if (req.readableFlowing === null && req.readableLength === 0 && !req.complete) {
      process.nextTick(afterParse, req, res, next);
      return;
    }
    return readStreamed(req, res, next);
  };
}
