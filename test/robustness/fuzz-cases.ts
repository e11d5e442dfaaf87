/**
 * Generated raw-socket cases for the fuzz suites: every endpoint of both generations (and some
 * that do not exist), with truncated and malformed multipart, invalid chunk framing, random
 * bytes, JSON with foreign content codings, bad paths, WebSocket upgrades with broken handshakes
 * and random frames, stalls, and aborts at random byte offsets including 0 ms after the headers.
 * fuzz-run.ts sends them.
 */
import fc from 'fast-check';
import { authFor, type RawPlan } from './raw-client.js';
import { SHA224_ABC as ABC } from '../helpers/digests.js';

/** Every endpoint with a body that would be valid there (or undefined: multipart, raw, GET). */
export const ENDPOINTS: ReadonlyArray<{
  method: 'GET' | 'POST';
  path: string;
  body: 'json' | 'multipart' | 'raw' | 'none';
  valid?: unknown;
}> = [
  { method: 'POST', path: '/v2/hash', body: 'json', valid: { data: 'abc' } },
  { method: 'POST', path: '/v2/verify', body: 'json', valid: { data: 'abc', hash: ABC } },
  { method: 'POST', path: '/v2/hmac', body: 'json', valid: { data: 'abc', key: 'k' } },
  { method: 'POST', path: '/v2/batch', body: 'json', valid: { items: [{ id: 'a', data: 'abc' }] } },
  { method: 'POST', path: '/v2/batch?async=true', body: 'json', valid: { items: [{ id: 'a', data: 'abc' }] } },
  { method: 'POST', path: '/v2/file', body: 'multipart' },
  { method: 'POST', path: '/v2/file?async=true', body: 'multipart' },
  { method: 'POST', path: '/v2/stream', body: 'raw' },
  { method: 'POST', path: '/v2/stream?async=true', body: 'raw' },
  { method: 'GET', path: '/v2/jobs/', body: 'none' },
  { method: 'POST', path: '/v1/hash', body: 'json', valid: { data: 'abc' } },
  { method: 'POST', path: '/v1/verify', body: 'json', valid: { data: 'abc', hash: ABC } },
  { method: 'POST', path: '/v1/file/hash', body: 'multipart' },
  { method: 'POST', path: '/v1/hmac', body: 'json', valid: { data: 'abc', key: 'k' } },
  { method: 'GET', path: '/v1/usage', body: 'none' },
  { method: 'POST', path: '/v1/hash/text', body: 'json', valid: { text: 'abc' } },
  { method: 'POST', path: '/v1/hash/file', body: 'multipart' },
  // Loopback on a closed port: refused by the default SSRF policy, never a real fetch.
  { method: 'POST', path: '/v1/hash/url', body: 'json', valid: { url: 'http://127.0.0.1:1/' } },
  { method: 'POST', path: '/v1/verify/text', body: 'json', valid: { text: 'abc', hash: ABC } },
  { method: 'POST', path: '/v1/verify/file', body: 'multipart' },
  { method: 'POST', path: '/v1/batch/hash', body: 'json', valid: { items: [{ text: 'abc' }] } },
  { method: 'POST', path: '/v1/batch/verify', body: 'json', valid: { items: [{ text: 'abc', hash: ABC }] } },
  { method: 'POST', path: '/v1/compare', body: 'json', valid: { hash1: ABC, hash2: ABC } },
  { method: 'GET', path: '/v1/status', body: 'none' },
  { method: 'POST', path: '/v2/no-such-endpoint', body: 'json', valid: {} },
  { method: 'GET', path: '/v1/no-such-endpoint', body: 'none' },
];

export type CaseKind = 'multipart' | 'chunked' | 'random' | 'json' | 'path' | 'upgrade' | 'stall' | 'abort';

export interface FuzzCase {
  kind: CaseKind;
  plan: RawPlan;
  /** A stall: the server must answer or close on its own, within its timeouts. */
  stalls: boolean;
}

const bytes = (maxLength: number) => fc.uint8Array({ maxLength }).map((a) => Buffer.from(a));
const endpoint = fc.constantFrom(...ENDPOINTS);

function requestHead(method: string, path: string, headers: Array<[string, string | number]>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
}

function credential(path: string, key: string): Array<[string, string]> {
  return Object.entries(authFor(path, key));
}

/** A multipart body, then one of the ways real clients get it wrong. */
function multipartArb(key: string): fc.Arbitrary<FuzzCase> {
  const part = fc.record({
    name: fc.constantFrom('file', 'file', 'hash', 'chunk_size', 'output', 'other', 'fïlé'),
    filename: fc.option(fc.constantFrom('a.txt', 'résumé.txt', '../../etc/passwd', '', 'x"y.bin', '日本.bin'), { nil: undefined }),
    content: bytes(600),
  });
  const mutation = fc.oneof(
    { arbitrary: fc.constantFrom('none', 'truncate', 'no-closing', 'wrong-boundary', 'garbage-header', 'no-blank-line'), weight: 24 },
    // Stalls until the body-idle timeout: kept rare, each costs that long.
    { arbitrary: fc.constant('declared-longer'), weight: 1 },
  );
  return fc
    .record({
      ep: endpoint,
      parts: fc.array(part, { minLength: 0, maxLength: 4 }),
      mutation,
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ ep, parts, mutation, cut }) => {
      const boundary = 'fuzzB0undary';
      let body = Buffer.concat([
        ...parts.map((p) =>
          Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}\r\n` +
                (mutation === 'garbage-header' ? 'this is not a header\r\n' : '') +
                (mutation === 'no-blank-line' ? '' : '\r\n'),
            ),
            p.content,
            Buffer.from('\r\n'),
          ]),
        ),
        Buffer.from(mutation === 'no-closing' ? '' : `--${boundary}--\r\n`),
      ]);
      if (mutation === 'truncate') body = body.subarray(0, Math.floor(body.length * cut));
      const declared = mutation === 'declared-longer' ? body.length + 10 : body.length;
      const header = mutation === 'wrong-boundary' ? 'other' : boundary;
      return {
        kind: 'multipart' as const,
        stalls: mutation === 'declared-longer',
        plan: {
          head: requestHead(ep.method, ep.path, [
            ...credential(ep.path, key),
            ['Content-Type', `multipart/form-data; boundary=${header}`],
            ['Content-Length', declared],
          ]),
          then: [body],
        },
      };
    });
}

/** Chunked transfer encoding, valid or not: bad size lines, sizes that lie, extensions, no terminator. */
function chunkedArb(key: string): fc.Arbitrary<FuzzCase> {
  const chunk = fc.record({
    data: bytes(300),
    line: fc.constantFrom('valid', 'valid', 'valid', 'zz', '-1', 'huge', 'short', 'long', 'extension', 'big-extension', 'no-crlf'),
  });
  return fc
    .record({
      ep: endpoint,
      chunks: fc.array(chunk, { maxLength: 5 }),
      terminated: fc.boolean(),
      type: fc.constantFrom('application/octet-stream', 'application/json', 'multipart/form-data; boundary=x'),
    })
    .map(({ ep, chunks, terminated, type }) => {
      const framed = chunks.map(({ data, line }) => {
        const size = data.length.toString(16);
        const sizeLine =
          line === 'zz'
            ? 'zz'
            : line === '-1'
              ? '-1'
              : line === 'huge'
                ? 'fffffffffffffffffffff'
                : line === 'short'
                  ? (data.length + 7).toString(16)
                  : line === 'long'
                    ? Math.max(0, data.length - 3).toString(16)
                    : line === 'extension'
                      ? `${size};name=value`
                      : line === 'big-extension'
                        ? `${size};${'e'.repeat(20_000)}`
                        : size;
        return Buffer.concat([Buffer.from(`${sizeLine}${line === 'no-crlf' ? '' : '\r\n'}`), data, Buffer.from('\r\n')]);
      });
      return {
        kind: 'chunked' as const,
        stalls: false,
        plan: {
          head: requestHead(ep.method, ep.path, [...credential(ep.path, key), ['Content-Type', type], ['Transfer-Encoding', 'chunked']]),
          then: [...framed, terminated ? '0\r\n\r\n' : ''],
          // An unterminated body ends with the client's FIN, as when a client dies mid-upload.
          endAfterWrite: !terminated,
        },
      };
    });
}

/** Bytes that are not HTTP, or a request line followed by them. */
function randomArb(key: string): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    bytes(1500).map((b) => ({ kind: 'random' as const, stalls: false, plan: { head: b, endAfterWrite: true } })),
    fc.record({ ep: endpoint, b: bytes(1500) }).map(({ ep, b }) => ({
      kind: 'random' as const,
      stalls: false,
      plan: {
        head: Buffer.concat([
          Buffer.from(
            `${ep.method} ${ep.path} HTTP/1.1\r\n${credential(ep.path, key)
              .map(([n, v]) => `${n}: ${v}\r\n`)
              .join('')}`,
          ),
          b,
        ]),
        endAfterWrite: true,
      },
    })),
    fc.record({ ep: endpoint, b: bytes(1500) }).map(({ ep, b }) => ({
      kind: 'random' as const,
      stalls: false,
      plan: { head: requestHead(ep.method, ep.path, [...credential(ep.path, key), ['Content-Length', b.length]]), then: [b] },
    })),
  );
}

/** JSON-ish bodies with content codings, charsets and lengths a client might send. */
function jsonArb(key: string): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      ep: endpoint,
      body: fc.oneof(
        fc.constant(undefined),
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
        fc.string({ maxLength: 60 }),
        bytes(200),
      ),
      coding: fc.constantFrom(undefined, 'identity', 'gzip', 'br', 'deflate', 'compress, gzip', 'x-made-up'),
      charset: fc.constantFrom(undefined, 'utf-8', 'latin1', 'utf-16'),
    })
    .map(({ ep, body, coding, charset }) => {
      const payload = Buffer.from(body ?? JSON.stringify(ep.valid ?? {}));
      const headers: Array<[string, string | number]> = [
        ...credential(ep.path, key),
        ['Content-Type', `application/json${charset ? `; charset=${charset}` : ''}`],
        ['Content-Length', payload.length],
      ];
      if (coding !== undefined) headers.push(['Content-Encoding', coding]);
      return { kind: 'json' as const, stalls: false, plan: { head: requestHead(ep.method, ep.path, headers), then: [payload] } };
    });
}

/** Paths with bad percent-encoding, odd segments and unicode. */
function pathArb(key: string): fc.Arbitrary<FuzzCase> {
  const segment = fc.constantFrom('%ZZ', '%', '%e0%a4%a', '%FF', '..', '', 'jobs', '%2e%2e', 'ü', '%00', 'x?y=%zz', 'v2', 'v1', 'hash');
  return fc
    .record({
      ep: endpoint,
      extra: fc.array(segment, { maxLength: 4 }),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'),
    })
    .map(({ ep, extra, method }) => {
      const path = `${ep.path.split('?', 1)[0]}/${extra.join('/')}`.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
      return {
        kind: 'path' as const,
        stalls: false,
        plan: { head: requestHead(method, path, [...credential(path, key), ['Content-Length', 0]]) },
      };
    });
}

/** WebSocket upgrades to /v2/ws (and elsewhere): broken handshakes, bad keys, random frames after them. */
function upgradeArb(key: string): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      path: fc.constantFrom('/v2/ws', '/v2/ws', '/v2/ws', '/v2/nope', '/v1/hash'),
      apiKey: fc.constantFrom(key, key, 's224_not-a-key', ''),
      method: fc.constantFrom('GET', 'GET', 'GET', 'POST'),
      wsKey: fc.constantFrom('dGhlIHNhbXBsZSBub25jZQ==', 'dGhlIHNhbXBsZSBub25jZQ==', 'short', undefined),
      version: fc.constantFrom('13', '13', '8', '99', undefined),
      frames: bytes(300),
      end: fc.constantFrom('fin', 'abort', 'wait'),
    })
    .map(({ path, apiKey, method, wsKey, version, frames, end }) => {
      const headers: Array<[string, string | number]> = [
        ['Connection', 'Upgrade'],
        ['Upgrade', 'websocket'],
      ];
      if (wsKey !== undefined) headers.push(['Sec-WebSocket-Key', wsKey]);
      if (version !== undefined) headers.push(['Sec-WebSocket-Version', version]);
      return {
        kind: 'upgrade' as const,
        stalls: false,
        plan: {
          head: requestHead(method, `${path}?api_key=${apiKey}`, headers),
          then: [frames],
          endAfterWrite: end === 'fin',
          ...(end === 'abort' ? { abortAfterMs: 1 } : {}),
        },
      };
    });
}

/** A valid start, then silence: the server must answer 408 (or close) within its timeouts. */
function stallArb(key: string): fc.Arbitrary<FuzzCase> {
  return fc.record({ ep: endpoint, sent: fc.nat(40), inHeaders: fc.boolean() }).map(({ ep, sent, inHeaders }) => {
    const full = requestHead(ep.method, ep.path, [
      ...credential(ep.path, key),
      ['Content-Type', 'application/octet-stream'],
      ['Content-Length', 100],
    ]);
    const head = inHeaders ? full.slice(0, Math.max(1, full.length - 2 - sent)) : full + 'x'.repeat(sent);
    return { kind: 'stall' as const, stalls: true, plan: { head } };
  });
}

/** A valid request cut at a random byte offset, 0–3 ms after that byte (0 ms after the headers included). */
function abortArb(key: string): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      inner: fc.oneof(multipartArb(key), chunkedArb(key), jsonArb(key)),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
      delay: fc.nat(3),
      afterHeaders: fc.boolean(),
    })
    .map(({ inner, cut, delay, afterHeaders }) => {
      const whole = Buffer.concat([
        Buffer.from(inner.plan.head),
        ...(inner.plan.then ?? []).filter((p): p is Buffer | string => typeof p !== 'number').map((p) => Buffer.from(p)),
      ]);
      const headEnd = whole.indexOf('\r\n\r\n') + 4;
      const at = afterHeaders ? headEnd : Math.floor(whole.length * cut);
      return { kind: 'abort' as const, stalls: false, plan: { head: whole.subarray(0, at), abortAfterMs: delay } };
    });
}

/** The mix: stalls are rare (each costs a body-idle timeout), everything else is fast. */
export function fuzzCase(key: string): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    { arbitrary: multipartArb(key), weight: 25 },
    { arbitrary: chunkedArb(key), weight: 20 },
    { arbitrary: randomArb(key), weight: 15 },
    { arbitrary: jsonArb(key), weight: 15 },
    { arbitrary: pathArb(key), weight: 8 },
    { arbitrary: upgradeArb(key), weight: 5 },
    { arbitrary: abortArb(key), weight: 15 },
    { arbitrary: stallArb(key), weight: 1 },
  );
}
