/**
 * The log's leaf: a small canonical text record about a digest, never the data. Fields, in order,
 * one `key value` line each: the record version, the SHA-224 digest (lowercase hex), the byte length,
 * the source kind, an opaque account tag (HMAC of the account id under a log key, so the log never
 * names the account) and the time it was logged (Unix milliseconds). Parsing re-encodes and compares,
 * so exactly one byte string stands for each record.
 */
import { createHmac } from 'node:crypto';

export const LEAF_VERSION = 'sha224d-leaf/v1';
export const LEAF_SOURCES = ['data', 'file', 'stream', 'url', 'digest'] as const;
export type LeafSource = (typeof LEAF_SOURCES)[number];

export interface LeafRecord {
  readonly digest: string;
  readonly length: number;
  readonly source: LeafSource;
  readonly account: string;
  readonly timeMs: number;
}

export function encodeLeaf(leaf: LeafRecord): Buffer {
  return Buffer.from(leafText(leaf), 'utf8');
}

/** The record's text, whose UTF-8 bytes encodeLeaf answers. */
export function leafText(leaf: LeafRecord): string {
  return `${LEAF_VERSION}\ndigest ${leaf.digest}\nlength ${leaf.length}\nsource ${leaf.source}\naccount ${leaf.account}\ntime ${leaf.timeMs}\n`;
}

const INT = /^(0|[1-9][0-9]{0,15})$/u;

/** Parses a record made by encodeLeaf; throws on anything else. */
export function decodeLeaf(bytes: Uint8Array): LeafRecord {
  const text = Buffer.from(bytes).toString('utf8');
  const lines = text.split('\n');
  const field = (i: number, key: string): string => {
    const line = lines[i] ?? '';
    if (!line.startsWith(`${key} `)) throw new Error(`malformed leaf: no ${key}`);
    return line.slice(key.length + 1);
  };
  if (lines[0] !== LEAF_VERSION) throw new Error('malformed leaf: unknown version');
  const digest = field(1, 'digest');
  const length = field(2, 'length');
  const source = field(3, 'source');
  const account = field(4, 'account');
  const time = field(5, 'time');
  if (!/^[0-9a-f]{56}$/u.test(digest) || !INT.test(length) || !INT.test(time) || !/^[A-Za-z0-9_-]{1,64}$/u.test(account)) {
    throw new Error('malformed leaf');
  }
  if (!(LEAF_SOURCES as readonly string[]).includes(source)) throw new Error('malformed leaf: unknown source');
  const leaf: LeafRecord = { digest, length: Number(length), source: source as LeafSource, account, timeMs: Number(time) };
  if (!encodeLeaf(leaf).equals(Buffer.from(bytes))) throw new Error('malformed leaf: not canonical');
  return leaf;
}

/** The account's opaque tag: HMAC-SHA-256(account id) under the log's account key, 16 bytes, base64url. */
export function accountTag(accountKey: Uint8Array, accountId: string): string {
  return createHmac('sha256', accountKey).update(accountId, 'utf8').digest().subarray(0, 16).toString('base64url');
}
