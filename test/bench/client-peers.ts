/**
 * The peers the client library is measured against, set up identically in Node and Chromium.
 * Each is called the way its documentation shows for a one-shot hex digest of bytes.
 */
import { sha224 as nobleSha224 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { createSHA224 } from 'hash-wasm';
// The pure-JavaScript build: js-sha256's Node entry would delegate to node:crypto.
import jsSha256 from 'js-sha256/build/sha256.js';
import type { HashFn } from './client-harness.js';

export const OURS = 'sha224d';
/** The pure-JavaScript peers: the target is ≥ 1.3× the fastest of these at every size. */
export const PURE_JS_PEERS = ['@noble/hashes', 'js-sha256'] as const;

export async function peers(): Promise<Record<string, HashFn>> {
  // hash-wasm's one-shot sha224() is async; a created hasher is synchronous once instantiated.
  const wasm = await createSHA224();
  return {
    '@noble/hashes': (m) => bytesToHex(nobleSha224(m)),
    'js-sha256': (m) => jsSha256.sha224(m),
    'hash-wasm': (m) => wasm.init().update(m).digest('hex'),
  };
}
