/**
 * Chromium side of `npm run bench:client`: bundled by esbuild into one script, loaded after
 * dist/sha224.min.js (the shipped IIFE, which defines the globals SHA224 and SHA224Class).
 */
import type { SHA224 as Api } from '../../api/clients/browser/src/sha224.js';
import { runBench, type BenchOptions, type SizeResult } from './client-harness.js';
import { OURS, peers } from './client-peers.js';

const { SHA224 } = globalThis as unknown as { SHA224: typeof Api };

(globalThis as unknown as { runClientBench: (options: BenchOptions) => Promise<SizeResult[]> }).runClientBench = async (options) => {
  const others = await peers();
  return runBench({ [OURS]: (m) => SHA224(m), ...others }, others['hash-wasm']!, options);
};
