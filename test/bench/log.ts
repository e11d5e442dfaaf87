/**
 * `npm run bench:log [-- N [concurrency]]`: leaves per second through the transparency log's
 * sequencer (shared/proof/log.ts), each append committed before its index returns, on SQLite (a
 * temp file) and, when it answers, the machine's PostgreSQL (a fresh schema, dropped after); then
 * the same with a receipt each (what a request with `"log": true` waits for: the leaf committed
 * with a checkpoint covering it, and its inclusion proof), and the cost of reading one receipt back.
 * Prints one line per engine. Then logging's added CPU per /v2/hash request: an embedded node in this
 * process (SQLite) answers the same requests with and without `"log": true`, in alternating rounds
 * after a warm-up (the machine is shared, so single runs drift), and the process's CPU time per
 * request is compared round by round (medians).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { encodeLeaf } from '../../shared/proof/leaf.js';
import { TransparencyLog } from '../../shared/proof/log.js';
import { logKeyOf } from '../../shared/proof/log-key.js';
import { createStore } from '../../shared/store/kysely-store.js';
import { createTestDatabase, type EngineName } from '../store/engines.js';
import { startTestServer } from '../helpers/api-server.js';

const total = Number(process.argv[2] ?? 20_000);
const concurrency = Number(process.argv[3] ?? 256);
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

await bench('sqlite');
await bench('postgres').catch((err: unknown) => process.stdout.write(`postgres: skipped (${String(err)})\n`));

/** CPU (user + system, this process: server and client alike) per /v2/hash request, and requests/s. */
async function httpCost(): Promise<void> {
  const s = await startTestServer({ engine: 'sqlite', env: { LOG_ORIGIN: 'bench.local/log', LOG_CHECKPOINT_INTERVAL_MS: '0' } });
  try {
    const requests = Math.min(total, 3000);
    const run = async (log: boolean, n: number): Promise<{ cpuUs: number; perSecond: number }> => {
      let next = 0;
      const cpu = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < n) {
            const res = await fetch(`${s.url}/v2/hash`, {
              method: 'POST',
              headers: { 'x-api-key': s.keys.production, 'content-type': 'application/json' },
              body: JSON.stringify({ data: `bench ${log} ${next++}`, ...(log ? { log: true } : {}) }),
            });
            if (res.status !== 200) throw new Error(`/v2/hash answered ${res.status}`);
            await res.arrayBuffer();
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      return { cpuUs: (used.user + used.system) / n, perSecond: n / ((performance.now() - started) / 1000) };
    };
    // Warm-up: both paths compiled and the tree past its first levels before anything is counted.
    await run(false, 1000);
    await run(true, 1000);
    const ROUNDS = 6;
    const plain: number[] = [];
    const logged: number[] = [];
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plain.push((await run(false, requests / ROUNDS)).cpuUs);
      const r = await run(true, requests / ROUNDS);
      logged.push(r.cpuUs);
      rates.push(r.perSecond);
    }
    const added = median(logged.map((l, i) => l - plain[i]!));
    const base = median(plain);
    process.stdout.write(
      `/v2/hash over HTTP (embedded, SQLite, 16 connections, ${requests} requests each in ${ROUNDS} alternating rounds, medians): ` +
        `without log ${Math.round(base)} µs CPU/request; with log ${Math.round(median(logged))} µs CPU/request, ` +
        `${Math.round(median(rates))} leaves/s; logging adds ${Math.round(added)} µs CPU/request (${((100 * added) / base).toFixed(1)} %) ` +
        `[rounds without: ${plain.map(Math.round).join(', ')}; with: ${logged.map(Math.round).join(', ')}]\n`,
    );
  } finally {
    await s.close();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

await httpCost();
