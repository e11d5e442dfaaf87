/**
 * The transparency log under concurrent load over HTTP (docs/proving.md): two API nodes of a
 * distributed deployment (real processes, PostgreSQL schema and Redis prefix of their own) log
 * TOTAL digests (400; 10,000 with LOG_CONCURRENCY_TOTAL=10000) through `"log": true` on /v2/hash
 * from many connections at once, on nodes that have served no load yet. The log is then gap-free
 * and duplicate-free with both nodes' appends interleaved, every receipt verifies with the SDK's
 * offline verifyReceipt against the published key, and the final checkpoint is consistent with the
 * earlier ones. Then one API
 * node is SIGKILLed while it is logging: every receipt a client received (200) is in the log at
 * its index afterwards. Prints leaves per second.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../api/clients/typescript/src/receipt.js';
import { openCheckpoint } from '../../shared/proof/checkpoint.js';
import { verifyConsistency } from '../../shared/proof/merkle.js';
import { parseVerifierKey } from '../../shared/proof/note.js';
import { selfSignedTsaCert } from '../../shared/proof/tsa-cert.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';

interface ReceiptJson {
  index: number;
  leaf_base64: string;
  tree_size: number;
  root_hash: string;
  checkpoint: string;
  tlog_proof: string;
  log_key: string;
}

/**
 * Leaves in the concurrency run. 400 in `npm test`: both nodes' batches interleave hundreds of
 * times under the one lock (asserted below), which is what gap-free and duplicate-free must survive,
 * in seconds; LOG_CONCURRENCY_TOTAL=10000 runs the full 10,000 (README "Tests"). The nodes are not
 * warmed up first: the logging run is their first load (a batch once failed with 503 on cold nodes,
 * shared/proof/log.ts). The figures without `log` run after it, on as many requests.
 */
const TOTAL = Number(process.env.LOG_CONCURRENCY_TOTAL ?? 400);
const CONNECTIONS_PER_NODE = Number(process.env.LOG_CONCURRENCY_CONNECTIONS ?? 8);

describe('transparency log over HTTP: 2 API nodes, concurrent appends, a sequencer killed mid-append', () => {
  let c: Cluster;
  let logKey: string;
  beforeAll(async () => {
    // Distributed nodes make no keys of their own: both are given the same log and TSA keys.
    const logSigner = generateKeyPairSync('ed25519').privateKey;
    const tsaKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    c = await startCluster({
      apiNodes: 2,
      workers: 0,
      env: {
        LOG_ORIGIN: 'concurrency.test/log',
        LOG_CHECKPOINT_INTERVAL_MS: '0',
        LOG_SIGNING_KEY: logSigner.export({ type: 'pkcs8', format: 'pem' }).toString(),
        TSA_KEY: tsaKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        TSA_CERT: selfSignedTsaCert(tsaKey, 'concurrency.test TSA', new Date()),
      },
    });
    const res = await fetch(`${c.url(0)}/.well-known/sha224d-log`);
    logKey = ((await res.json()) as { verifier_key: string }).verifier_key;
  }, 60_000);
  afterAll(async () => {
    if (process.env.LOG_CONCURRENCY_DUMP) for (const a of c?.apis ?? []) process.stdout.write(a.output().slice(-3000));
    await c?.close();
  });

  const logData = async (url: string, data: string): Promise<{ status: number; receipt?: ReceiptJson; error?: string }> => {
    const res = await fetch(`${url}/v2/hash`, {
      method: 'POST',
      headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
      body: JSON.stringify({ data, log: true }),
    });
    if (res.status !== 200) return { status: res.status, error: await res.text() };
    const body = (await res.json()) as { hash: string; receipt: ReceiptJson };
    return { status: 200, receipt: body.receipt };
  };

  /** Every stored leaf, in index order, read straight from the shared database. */
  const storedLeaves = async (): Promise<Buffer[]> => {
    const out: Buffer[] = [];
    for (;;) {
      const rows = await c.store.transparencyLog.leavesFrom(out.length, 5000);
      for (const row of rows) {
        expect(row.index).toBe(out.length);
        out.push(row.leaf);
      }
      if (rows.length < 5000) return out;
    }
  };

  it(`${TOTAL} digests from both nodes at once: indices 0..${TOTAL - 1} each once, every receipt verifies offline, checkpoints consistent`, async () => {
    const receipts: ReceiptJson[] = new Array<ReceiptJson>(TOTAL);
    const servedBy = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      [0, 1].flatMap((node) =>
        Array.from({ length: CONNECTIONS_PER_NODE }, async () => {
          while (next < TOTAL) {
            const i = next++;
            const r = await logData(c.url(node), `item ${i}`);
            expect(r.status, r.error).toBe(200);
            receipts[i] = r.receipt!;
            servedBy.set(r.receipt!.index, node);
          }
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `log over HTTP: ${TOTAL} leaves in ${seconds.toFixed(2)} s = ${Math.round(TOTAL / seconds)} leaves/s ` +
        `(2 API nodes, ${2 * CONNECTIONS_PER_NODE} connections, PostgreSQL)\n`,
    );

    // Gap-free and duplicate-free: the indices the clients got are exactly 0..TOTAL-1.
    const indices = receipts.map((r) => r.index).sort((a, b) => a - b);
    expect(indices).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
    const stored = await storedLeaves();
    expect(stored.length).toBe(TOTAL);
    for (const r of receipts) expect(stored[r.index]!.toString('base64')).toBe(r.leaf_base64);
    // The two nodes really contended: in index order, the appending node changed many times.
    let switches = 0;
    for (let i = 1; i < TOTAL; i++) if (servedBy.get(i) !== servedBy.get(i - 1)) switches++;
    process.stdout.write(`the appending node changed ${switches} times along the ${TOTAL} indices\n`);
    expect(switches).toBeGreaterThanOrEqual(20);

    // Every receipt verifies offline (the SDK's verifier) against the published key.
    for (let i = 0; i < TOTAL; i++) {
      const v = await verifyReceipt(receipts[i]!, { logKey, digest: createHash('sha224').update(`item ${i}`).digest('hex') });
      expect(v.index).toBe(receipts[i]!.index);
    }

    // The final checkpoint is consistent with every earlier checkpoint a receipt carried.
    const verifier = parseVerifierKey(logKey);
    const finalText = await (await fetch(`${c.url(1)}/log/checkpoint`)).text();
    const final = openCheckpoint(finalText, verifier);
    expect(final.size).toBe(TOTAL);
    const earlier = new Map<number, Buffer>();
    for (const r of receipts) earlier.set(r.tree_size, openCheckpoint(r.checkpoint, verifier).root);
    expect(earlier.size).toBeGreaterThan(1);
    for (const [size, root] of earlier) {
      const res = await fetch(`${c.url(size % 2)}/v2/log/consistency?from=${size}&to=${final.size}`, {
        headers: { 'x-api-key': c.keys.read_only },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { proof: string[] };
      const proof = body.proof.map((h) => Buffer.from(h, 'base64'));
      expect(verifyConsistency(size, final.size, root, final.root, proof)).toBe(true);
    }
  }, 300_000);

  it('figures: the same requests without "log" on the same cluster (requests/s)', async () => {
    const n = TOTAL;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      [0, 1].flatMap((node) =>
        Array.from({ length: CONNECTIONS_PER_NODE }, async () => {
          while (next < n) {
            const res = await fetch(`${c.url(node)}/v2/hash`, {
              method: 'POST',
              headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
              body: JSON.stringify({ data: `plain ${next++}` }),
            });
            expect(res.status).toBe(200);
            await res.arrayBuffer();
          }
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`without log: ${n} requests in ${seconds.toFixed(2)} s = ${Math.round(n / seconds)} requests/s\n`);
  }, 60_000);

  it('SIGKILL of one API node while it logs: every receipt a client received is in the log at its index', async () => {
    const before = (await storedLeaves()).length;
    const victim = c.apis[0]!;
    const received: { data: string; receipt: ReceiptJson }[] = [];
    let failed = 0;
    let n = 0;
    let stop = false;
    const client = async (url: string): Promise<void> => {
      while (!stop) {
        const data = `kill ${n++}`;
        try {
          const r = await logData(url, data);
          if (r.receipt) received.push({ data, receipt: r.receipt });
          else failed++;
        } catch {
          // The connection died with the node: the client got no receipt, so nothing was promised.
          failed++;
          if (url === c.url(0)) return;
        }
      }
    };
    const clients = [0, 1].flatMap((node) => Array.from({ length: 16 }, () => client(c.url(node))));
    // Kill once the victim has acknowledged some leaves, mid-stream.
    const killAt = received.length + 200;
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (received.length >= killAt) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    await victim.stop('SIGKILL');
    const afterKill = received.length;
    // The survivor keeps logging for a while after the kill, then every client stops.
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (received.length >= afterKill + 300) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    stop = true;
    await Promise.all(clients);
    process.stdout.write(`kill test: ${received.length} receipts received, ${failed} requests failed with the node\n`);

    const stored = await storedLeaves();
    const storedSet = new Set(stored.map((l) => l.toString('base64')));
    // Gap-free (storedLeaves checks contiguous indices) and duplicate-free.
    expect(storedSet.size).toBe(stored.length);
    expect(stored.length).toBeGreaterThanOrEqual(before + received.length);
    for (const { data, receipt } of received) {
      expect(stored[receipt.index]?.toString('base64')).toBe(receipt.leaf_base64);
      const v = await verifyReceipt(receipt, { logKey, digest: createHash('sha224').update(data).digest('hex') });
      expect(v.index).toBe(receipt.index);
    }
    // The survivor still answers receipts for the leaves the dead node acknowledged.
    const last = received[received.length - 1]!.receipt;
    const again = await fetch(`${c.url(1)}/v2/receipts/${last.index}`, { headers: { 'x-api-key': c.keys.production } });
    expect(again.status).toBe(200);
  }, 90_000);
});
