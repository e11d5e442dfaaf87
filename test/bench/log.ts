/**
 * `npm run bench:log [-- N [concurrency]]`: leaves per second through the transparency log's
 * sequencer (shared/proof/log.ts), each append committed before its index returns, on SQLite (a
 * temp file) and, when it answers, the machine's PostgreSQL (a fresh schema, dropped after); then
 * the same with a receipt each (what a request with `"log": true` waits for: the leaf committed
 * with a checkpoint covering it, and its inclusion proof), and the cost of reading one receipt back.
 * Prints one line per engine (`--http-only` skips these). Then logging's added CPU per /v2/hash
 * request, measured on a spawned server's own CPU with wrk as the load (log-http.ts).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { encodeLeaf } from '../../shared/proof/leaf.js';
import { TransparencyLog } from '../../shared/proof/log.js';
import { logKeyOf } from '../../shared/proof/log-key.js';
import { createStore } from '../../shared/store/kysely-store.js';
import { createTestDatabase, type EngineName } from '../store/engines.js';
import { logHttpCost } from './log-http.js';

const [totalArg, concurrencyArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const total = Number(totalArg ?? 20_000);
const concurrency = Number(concurrencyArg ?? 256);
const key = logKeyOf('bench.local/log', generateKeyPairSync('ed25519').privateKey);

async function bench(engine: EngineName): Promise<void> {
  const db = await createTestDatabase(engine);
  const store = await createStore(db.options);
  try {
    const log = new TransparencyLog(store.transparencyLog, key);
    const leaf = (i: number): Buffer =>
      encodeLeaf({ digest: randomBytes(28).toString('hex'), length: i, source: 'digest', account: 'bench', timeMs: Date.now() });
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) await log.append(leaf(next++));
      }),
    );
    const appendSeconds = (performance.now() - started) / 1000;
    next = 0;
    const l0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          const i = next++;
          await log.log({ digest: randomBytes(28).toString('hex'), length: i, source: 'digest', accountId: `acct_${i % 16}` });
        }
      }),
    );
    const logSeconds = (performance.now() - l0) / 1000;
    const r0 = performance.now();
    const receipts = 200;
    for (let i = 0; i < receipts; i++) await log.receipt(Math.floor((i * total) / receipts));
    const receiptMs = (performance.now() - r0) / receipts;
    process.stdout.write(
      `${engine}: ${total} leaves in ${appendSeconds.toFixed(2)} s = ${Math.round(total / appendSeconds)} leaves/s ` +
        `(${concurrency} concurrent appenders); with a receipt each ${Math.round(total / logSeconds)} leaves/s; ` +
        `reading a receipt back ${receiptMs.toFixed(2)} ms\n`,
    );
  } finally {
    await store.close();
    await db.cleanup();
  }
}

const httpOnly = process.argv.includes('--http-only');
if (!httpOnly) {
  await bench('sqlite');
  await bench('postgres').catch((err: unknown) => process.stdout.write(`postgres: skipped (${String(err)})\n`));
}
await logHttpCost();
