/**
 * Offline verification of a transparency log receipt (the service's docs/proving.md): no network.
 * Written from the public specifications, apart from the server's code: the leaf record, RFC 9162
 * §2.1.3.2 inclusion verification, the C2SP checkpoint and signed-note (Ed25519) formats and the
 * C2SP tlog-proof text. Uses WebCrypto (Node ≥ 20 and browsers).
 */
import { sha224Hex } from './receipt-sha224.js';

/** A receipt as the service answers it (JSON), or its `tlog_proof` text. */
export type ReceiptInput = string | { tlog_proof: string };

export interface VerifyReceiptOptions {
  /** The data itself (its SHA-224 is computed here)… */
  data?: Uint8Array;
  /** …or its SHA-224, lowercase or uppercase hex. */
  digest?: string;
  /** The log's verifier key, `<origin>+<key id>+<base64 key>` (from /.well-known/sha224d-log). */
  logKey: string;
}

export interface VerifiedReceipt {
  /** The log the checkpoint names. */
  origin: string;
  index: number;
  treeSize: number;
  /** Base64 root hash of the checkpoint. */
  rootHash: string;
  digest: string;
  length: number;
  source: string;
  /** An opaque tag of the account that logged it. */
  account: string;
  /** When the log recorded it. */
  loggedAt: Date;
}

export class ReceiptVerificationError extends Error {
  override readonly name = 'ReceiptVerificationError';
}

const fail = (message: string): never => {
  throw new ReceiptVerificationError(message);
};

const text = new TextEncoder();

function b64(s: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) fail('malformed base64');
  const bin = atob(s);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const all: Uint8Array<ArrayBuffer> = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', all));
}

const equal = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** RFC 9162 §2.1.3.2: the root an inclusion proof leads to, or undefined when it cannot be one. */
async function rootFromInclusion(leafHash: Uint8Array, index: number, size: number, proof: Uint8Array[]): Promise<Uint8Array | undefined> {
  if (index >= size) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0 || p.length !== 32) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(Uint8Array.of(1), p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = await sha256(Uint8Array.of(1), r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : undefined;
}

/** Opens a C2SP signed note with an Ed25519 verifier key; returns the note text. */
async function openNote(note: string, logKey: string): Promise<{ text: string; name: string }> {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(logKey.trim());
  if (!m?.[1] || !m[2] || !m[3]) return fail('the log key is not <name>+<hex key id>+<base64 key>');
  const [, name, idHex, keyB64] = m;
  const key = b64(keyB64);
  if (key.length !== 33 || key[0] !== 1) fail('the log key is not an Ed25519 key');
  const id = (await sha256(text.encode(name), Uint8Array.of(0x0a), key)).subarray(0, 4);
  if (hex(id) !== idHex) fail('the log key id does not match its name and key');
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) fail('malformed checkpoint note');
  const body = note.slice(0, split + 1);
  const publicKey = await crypto.subtle.importKey('raw', Uint8Array.from(key.subarray(1)), { name: 'Ed25519' }, false, ['verify']);
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const sig = /^\u2014 (\S+) (\S+)$/.exec(line);
    if (!sig?.[1] || !sig[2]) fail('malformed signature line');
    if (sig?.[1] !== name) continue;
    const bytes = b64(sig[2] ?? '');
    if (bytes.length !== 68 || !equal(bytes.subarray(0, 4), id)) continue;
    if (await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, Uint8Array.from(bytes.subarray(4)), text.encode(body)))
      return { text: body, name };
    fail('the checkpoint signature does not verify');
  }
  return fail(`the checkpoint carries no signature by ${name}`);
}

interface Leaf {
  digest: string;
  length: number;
  source: string;
  account: string;
  timeMs: number;
}

function parseLeaf(bytes: Uint8Array): Leaf {
  const m =
    /^sha224d-leaf\/v1\ndigest ([0-9a-f]{56})\nlength (0|[1-9][0-9]{0,15})\nsource ([a-z]+)\naccount ([A-Za-z0-9_-]{1,64})\ntime (0|[1-9][0-9]{0,15})\n$/.exec(
      new TextDecoder().decode(bytes),
    );
  if (!m?.[1] || !m[2] || !m[3] || !m[4] || !m[5]) return fail('the receipt does not carry a sha224d leaf record');
  return { digest: m[1], length: Number(m[2]), source: m[3], account: m[4], timeMs: Number(m[5]) };
}

/**
 * Verifies, with no network, that the log whose key is `logKey` has signed a checkpoint containing
 * the leaf that records this data's SHA-224. Resolves what was proven; rejects with
 * ReceiptVerificationError naming the first check that failed.
 */
export async function verifyReceipt(receipt: ReceiptInput, options: VerifyReceiptOptions): Promise<VerifiedReceipt> {
  const proofText = typeof receipt === 'string' ? receipt : receipt.tlog_proof;
  const split = proofText.indexOf('\n\n');
  if (split < 0) fail('malformed tlog-proof');
  const lines = proofText.slice(0, split).split('\n');
  if (lines.shift() !== 'c2sp.org/tlog-proof@v1') fail('not a c2sp.org/tlog-proof@v1 proof');
  const extraLine = lines.shift() ?? '';
  if (!extraLine.startsWith('extra ')) fail('the proof carries no leaf record');
  const leafBytes = b64(extraLine.slice(6));
  const indexMatch = /^index (0|[1-9][0-9]{0,15})$/.exec(lines.shift() ?? '');
  if (!indexMatch?.[1]) return fail('malformed tlog-proof index');
  const index = Number(indexMatch[1]);
  const proof = lines.map(b64);

  const { text: cpText, name } = await openNote(proofText.slice(split + 2), options.logKey);
  const [origin, sizeLine, rootLine] = cpText.split('\n');
  if (origin !== name) fail(`the checkpoint is for another log (${origin ?? ''})`);
  if (!sizeLine || !/^(0|[1-9][0-9]{0,15})$/.test(sizeLine) || !rootLine) fail('malformed checkpoint');
  const treeSize = Number(sizeLine);
  const root = b64(rootLine ?? '');

  const leaf = parseLeaf(leafBytes);
  const expected = options.digest?.toLowerCase() ?? (options.data ? sha224Hex(options.data) : fail('give the data or its digest'));
  if (!/^[0-9a-f]{56}$/.test(expected)) fail('the digest must be 56 hexadecimal characters');
  if (leaf.digest !== expected) fail(`the receipt is for another digest (${leaf.digest})`);

  const leafHash = await sha256(Uint8Array.of(0), leafBytes);
  const computed = await rootFromInclusion(leafHash, index, treeSize, proof);
  if (!computed || !equal(computed, root)) fail('the inclusion proof does not lead to the checkpoint root');
  return {
    origin: name,
    index,
    treeSize,
    rootHash: rootLine ?? '',
    digest: leaf.digest,
    length: leaf.length,
    source: leaf.source,
    account: leaf.account,
    loggedAt: new Date(leaf.timeMs),
  };
}
