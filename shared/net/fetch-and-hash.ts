import type { LookupFunction } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { fileTooLarge } from '../blob/byte-limit.js';
import { ServiceError, isServiceError } from '../errors.js';
import { createSha224 } from '../hashing/sha224.js';
import { AddressDeniedError, guardedConnector } from './guarded-connect.js';
import { checkUrl, parseUrl, urlNotAllowed } from './url-policy.js';
import { URL_TIMEOUT_MAX_MS } from './url-timeout.js';

/**
 * Fetch a caller-named URL and hash its body (`POST /v1/hash/url`, job kind `url`).
 * The SSRF policy lives in address-policy.ts (which addresses), url-policy.ts (which URLs) and
 * guarded-connect.ts (checking what is actually dialed); this module adds the request loop:
 * manual redirects with every hop re-checked, one deadline over everything, and a byte cap
 * enforced on the stream as it is hashed.
 */

export const URL_MAX_REDIRECTS_DEFAULT = 5;
/** Upper bound for the maxRedirects option itself (a programming error above it). */
const URL_MAX_REDIRECTS_LIMIT = 20;

export interface FetchHashOptions {
  /** Deadline over DNS, connect, every redirect hop and the whole body, milliseconds. */
  timeoutMs: number;
  /** The plan's file-size limit: the body is refused (FILE_TOO_LARGE) once it passes this. */
  maxBytes: number;
  /** Test/dev only, off by default: permit exactly 127.0.0.1. See AddressPolicyOptions. */
  allowLoopback?: boolean;
  /** Redirects followed by hand; default 5. */
  maxRedirects?: number;
  /** DNS resolver, injectable for tests; its answers are checked like the system resolver's. */
  lookup?: LookupFunction;
  /** Cancels the fetch (e.g. worker shutdown); reported as URL_FETCH_FAILED "aborted". */
  signal?: AbortSignal;
}

export interface FetchHashResult {
  /** SHA-224 of the final response body, 28 bytes. */
  digest: Buffer;
  /** Bytes hashed: the API's `content_length`. */
  size: number;
  /** The URL whose body was hashed, after redirects. */
  finalUrl: string;
  status: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const REQUEST_HEADERS = {
  // The hash is of the bytes as served without a content coding; undici.request never decodes.
  'accept-encoding': 'identity',
  accept: '*/*',
  'user-agent': 'sha224d-url-hash',
};

interface Settings {
  timeoutMs: number;
  maxBytes: number;
  allowLoopback: boolean;
  maxRedirects: number;
  lookup: LookupFunction | undefined;
  signal: AbortSignal | undefined;
}

/** Options come from our own code, not callers: a bad one is a bug, so TypeError/RangeError. */
function settle(options: FetchHashOptions): Settings {
  const s: Settings = {
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes,
    allowLoopback: options.allowLoopback === true,
    maxRedirects: options.maxRedirects ?? URL_MAX_REDIRECTS_DEFAULT,
    lookup: options.lookup,
    signal: options.signal,
  };
  if (!Number.isInteger(s.timeoutMs) || s.timeoutMs <= 0 || s.timeoutMs > URL_TIMEOUT_MAX_MS) {
    throw new RangeError(`timeoutMs must be an integer in 1..${URL_TIMEOUT_MAX_MS}`);
  }
  if (!Number.isSafeInteger(s.maxBytes) || s.maxBytes < 0) {
    throw new RangeError('maxBytes must be a non-negative safe integer');
  }
  if (!Number.isInteger(s.maxRedirects) || s.maxRedirects < 0 || s.maxRedirects > URL_MAX_REDIRECTS_LIMIT) {
    throw new RangeError(`maxRedirects must be an integer in 0..${URL_MAX_REDIRECTS_LIMIT}`);
  }
  if (s.lookup !== undefined && typeof s.lookup !== 'function') throw new TypeError('lookup must be a function');
  return s;
}

function fetchFailed(details: string, cause?: unknown, extra?: Record<string, number>): ServiceError {
  return new ServiceError('URL_FETCH_FAILED', { details, cause, extra });
}

function findInChain<T>(err: unknown, guard: (e: unknown) => e is T): T | undefined {
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    if (guard(e)) return e;
    e = e instanceof Error ? e.cause : undefined;
  }
  return undefined;
}

const NETWORK_DETAILS: Record<string, string> = {
  ENOTFOUND: 'DNS lookup failed',
  EAI_AGAIN: 'DNS lookup failed',
  EAI_FAIL: 'DNS lookup failed',
  ENODATA: 'DNS lookup failed',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connect timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_HEADERS_OVERFLOW: 'response headers too large',
  UND_ERR_RESPONSE_EXCEEDED_MAX_SIZE: 'response too large',
};

/** Turn whatever undici/net threw into the catalog. Details never carry a resolved address. */
function mapError(err: unknown, hop: number, s: Settings, deadline: AbortSignal): ServiceError {
  if (isServiceError(err)) return err;
  const denied = findInChain(err, (e): e is AddressDeniedError => e instanceof AddressDeniedError);
  if (denied !== undefined) return urlNotAllowed(`address:${denied.rule}`, hop);
  if (deadline.aborted) return fetchFailed(`timed out after ${s.timeoutMs} ms`, err);
  if (s.signal?.aborted === true) return fetchFailed('aborted', err);
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    const known = NETWORK_DETAILS[code];
    if (known !== undefined) return fetchFailed(known, err);
    if (code.startsWith('ERR_TLS_') || code.startsWith('CERT_') || code.includes('CERT')) {
      return fetchFailed('TLS handshake failed', err);
    }
  }
  return fetchFailed('request failed', err);
}

type Body = Dispatcher.ResponseData['body'];

/**
 * Drop a response body we will not read, and with it the connection. undici's body emits
 * RequestAbortedError when destroyed unfinished; nobody else listens, so swallow it here.
 */
function discard(body: Body): void {
  body.on('error', () => undefined).destroy();
}

/** Stream the body into SHA-224, counting; stop reading and drop the connection past maxBytes. */
async function hashBody(body: Body, maxBytes: number): Promise<{ digest: Buffer; size: number }> {
  const hash = createSha224();
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      throw fileTooLarge(maxBytes);
    }
    hash.update(chunk);
  }
  return { digest: hash.digest(), size };
}

function declaredLength(headers: Dispatcher.ResponseData['headers']): number | undefined {
  const raw = headers['content-length'];
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

function locationOf(headers: Dispatcher.ResponseData['headers']): string | undefined {
  const raw = headers.location;
  return Array.isArray(raw) ? raw[0] : raw;
}

export async function fetchAndHash(url: string, options: FetchHashOptions): Promise<FetchHashResult> {
  const s = settle(options);
  let current = parseUrl(url);
  const policy = { allowLoopback: s.allowLoopback };
  checkUrl(current, policy); // refuse before allocating anything

  const deadline = AbortSignal.timeout(s.timeoutMs);
  const signal = s.signal === undefined ? deadline : AbortSignal.any([deadline, s.signal]);
  // One Agent per call: no connection, DNS answer or TLS session is shared with another
  // caller's fetch, and destroying it in `finally` closes whatever is still open.
  const agent = new Agent({
    connect: guardedConnector({ ...policy, lookup: s.lookup, connectTimeoutMs: s.timeoutMs }),
    headersTimeout: s.timeoutMs,
    bodyTimeout: s.timeoutMs,
  });
  let hop = 0;
  try {
    for (;;) {
      checkUrl(current, policy, hop);
      const res = await request(current, { dispatcher: agent, method: 'GET', headers: REQUEST_HEADERS, signal });
      const status = res.statusCode;

      if (REDIRECT_STATUSES.has(status)) {
        discard(res.body);
        const location = locationOf(res.headers);
        if (location === undefined) throw fetchFailed(`redirect ${status} without a Location`);
        if (hop >= s.maxRedirects) throw fetchFailed(`too many redirects (more than ${s.maxRedirects})`);
        if (!URL.canParse(location, current)) throw fetchFailed('redirect to an unparsable Location');
        current = new URL(location, current);
        hop += 1;
        continue;
      }
      if (status < 200 || status > 299) {
        discard(res.body);
        throw fetchFailed(`upstream status ${status}`, undefined, { upstream_status: status });
      }
      const length = declaredLength(res.headers);
      if (length !== undefined && length > s.maxBytes) {
        discard(res.body);
        throw fileTooLarge(s.maxBytes);
      }
      const { digest, size } = await hashBody(res.body, s.maxBytes);
      return { digest, size, finalUrl: current.href, status };
    }
  } catch (err) {
    throw mapError(err, hop, s, deadline);
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}
