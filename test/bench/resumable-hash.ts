/**
 * `npx tsx test/bench/resumable-hash.ts [MiB]`: the SHA-224 throughput of a resumable upload's
 * hash (hash-wasm, whose state is saved beside the offset after each PATCH) against node:crypto
 * (which cannot save its state), over the same bytes in 1 MiB updates, with one save/load per
 * 8 MiB as PATCHes of that size would do. Prints MB/s for each, best of 3.
 */
import { createHash, randomBytes } from 'node:crypto';
import { freshHash, resumeHash, HASH_TAG } from '../../shared/uploads/hash-state.js';

const mib = Number(process.argv[2] ?? 256);
const chunk = randomBytes(1024 * 1024);

async function run(): Promise<void> {
  const best = { crypto: Infinity, wasm: Infinity };
  const digests = { crypto: '', wasm: '' };
  for (let round = 0; round < 3; round++) {
    let t = performance.now();
    const h = createHash('sha224');
    for (let i = 0; i < mib; i++) h.update(chunk);
    digests.crypto = h.digest('hex');
    best.crypto = Math.min(best.crypto, performance.now() - t);

    t = performance.now();
    let w = await freshHash();
    for (let i = 0; i < mib; i++) {
      w.update(chunk);
      if (i % 8 === 7) w = (await resumeHash(w.save(), HASH_TAG))!;
    }
    digests.wasm = w.digestHex();
    best.wasm = Math.min(best.wasm, performance.now() - t);
  }
  if (digests.crypto !== digests.wasm) throw new Error('digests differ');
  const rate = (ms: number): string => ((mib * 1024 * 1024) / 1e6 / (ms / 1000)).toFixed(0);
  console.log(`${mib} MiB: node:crypto ${rate(best.crypto)} MB/s, hash-wasm with save/load every 8 MiB ${rate(best.wasm)} MB/s`);
}

await run();
