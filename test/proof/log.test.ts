/**
 * The transparency log over the store (shared/proof/log.ts, shared/store/kysely-log.ts) on SQLite and
 * PostgreSQL: two log instances on one database (two API nodes) append concurrently and the result is
 * gap-free and duplicate-free; every receipt verifies; published checkpoints never go backwards and
 * each is consistent with the one before; a smaller checkpoint is never stored.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckpoint } from '../../shared/proof/checkpoint.js';
import { decodeLeaf } from '../../shared/proof/leaf.js';
import { TransparencyLog } from '../../shared/proof/log.js';
import { logKeyOf } from '../../shared/proof/log-key.js';
import { hashLeaf, verifyConsistency, verifyInclusion } from '../../shared/proof/merkle.js';
import { parseVerifierKey } from '../../shared/proof/note.js';
import { parseTlogProof } from '../../shared/proof/tlog-proof.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import { currentDatabaseWait, runWithTrace } from '../../shared/trace.js';
import { createTestDatabase, ENGINES, type TestDatabase } from '../store/engines.js';

const key = logKeyOf('test.example/log', generateKeyPairSync('ed25519').privateKey);
const verifier = parseVerifierKey(key.verifierKey);
const sha224 = (s: string): string => createHash('sha224').update(s).digest('hex');

describe.each(ENGINES)('transparency log on %s', (engine) => {
  let db: TestDatabase;
  let stores: KyselyAccountStore[] = [];
  let nodes: TransparencyLog[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(engine);
    const first = await createStore(db.options);
    // SQLite is embedded mode's one process: both "nodes" share its store; PostgreSQL gets two pools.
    const second = engine === 'postgres' ? await createStore(db.options) : first;
    stores = engine === 'postgres' ? [first, second] : [first];
    nodes = [new TransparencyLog(first.transparencyLog, key), new TransparencyLog(second.transparencyLog, key)];
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    await db.cleanup();
  });

  it('an empty log publishes the empty checkpoint', async () => {
    const cp = await nodes[0]!.latest();
    expect(cp.size).toBe(0);
    expect(openCheckpoint(cp.note, verifier).root.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('two nodes logging concurrently: gap-free, duplicate-free, every receipt verifies, checkpoints only grow', async () => {
    const published: { size: number; root: Buffer }[] = [];
    const watch = async (): Promise<void> => {
      const cp = await nodes[1]!.latest();
      published.push({ size: cp.size, root: cp.root });
    };
    const PER_NODE = 150;
    const work = nodes.flatMap((node, n) =>
      Array.from({ length: PER_NODE }, async (_, i) => {
        const digest = sha224(`node ${n} item ${i}`);
        const receipt = await node.log({ digest, length: i, source: 'data', accountId: `acct_${n}` });
        if (i % 10 === 0) await watch();
        return { digest, receipt, n };
      }),
    );
    const results = await Promise.all(work);
    const indices = results.map((r) => r.receipt.index).sort((a, b) => a - b);
    expect(indices).toEqual(Array.from({ length: 2 * PER_NODE }, (_, i) => i));

    for (const { digest, receipt, n } of results) {
      expect(receipt.leaf.digest).toBe(digest);
      expect(receipt.leaf.account).toBe(nodes[0]!.accountTag(`acct_${n}`));
      const cp = openCheckpoint(receipt.checkpoint, verifier);
      expect(cp.size).toBeGreaterThan(receipt.index);
      expect(verifyInclusion(hashLeaf(receipt.leafBytes), receipt.index, cp.size, receipt.inclusionProof, cp.root)).toBe(true);
      const parsed = parseTlogProof(receipt.tlogProof);
      expect(parsed.index).toBe(receipt.index);
      expect(decodeLeaf(parsed.extra!)).toEqual(receipt.leaf);
    }

    // Published checkpoints, as seen over time, never go backwards, and each is consistent with the last.
    await watch();
    for (let i = 1; i < published.length; i++) {
      const a = published[i - 1]!;
      const b = published[i]!;
      expect(b.size).toBeGreaterThanOrEqual(a.size);
      const proof = await nodes[0]!.consistency(a.size, b.size);
      expect(verifyConsistency(a.size, b.size, a.root, b.root, proof)).toBe(true);
    }
    expect(published.at(-1)!.size).toBe(2 * PER_NODE);
  });

  it('a keyed leaf (an async job) is added once, however often and from whichever node it is logged', async () => {
    const before = (await nodes[0]!.latest()).size;
    const digest = sha224('job result');
    const jobKey = `job:${engine}-once`;
    const receipts = await Promise.all(
      [0, 1, 0, 1, 0, 1].map((n) => nodes[n]!.log({ digest, length: 10, source: 'file', accountId: 'acct_job' }, jobKey)),
    );
    const again = await nodes[1]!.log({ digest, length: 10, source: 'file', accountId: 'acct_job' }, jobKey);
    for (const r of [...receipts, again]) {
      expect(r.index).toBe(before);
      expect(r.leaf.digest).toBe(digest);
      expect(r.leafBytes.equals(receipts[0]!.leafBytes)).toBe(true);
      const cp = openCheckpoint(r.checkpoint, verifier);
      expect(verifyInclusion(hashLeaf(r.leafBytes), r.index, cp.size, r.inclusionProof, cp.root)).toBe(true);
    }
    const rows = await stores[0]!.transparencyLog.leavesFrom(before, 10);
    expect(rows.map((r) => r.index)).toEqual([before]);
    // In one batch too, where each call made its own leaf bytes (a clock that ticks per call): every
    // receipt is the stored leaf's.
    let tick = Date.now();
    const ticking = new TransparencyLog(stores[0]!.transparencyLog, key, () => tick++);
    const same = await Promise.all(
      [1, 2, 3].map(() =>
        ticking.log({ digest: sha224('one batch'), length: 3, source: 'stream', accountId: 'acct_job' }, `${jobKey}-batch`),
      ),
    );
    const stored = (await stores[0]!.transparencyLog.leavesFrom(same[0]!.index, 1))[0]!;
    for (const r of same) {
      expect(r.index).toBe(stored.index);
      expect(r.leafBytes.equals(stored.leaf)).toBe(true);
      const cp = openCheckpoint(r.checkpoint, verifier);
      expect(verifyInclusion(hashLeaf(r.leafBytes), r.index, cp.size, r.inclusionProof, cp.root)).toBe(true);
    }
    // Another key is another leaf, right after.
    const other = await nodes[0]!.log({ digest, length: 10, source: 'file', accountId: 'acct_job' }, `${jobKey}-2`);
    expect(other.index).toBe(before + 2);
  });

  it("the shared write is background work: it spends none of the requesting request's database time", async () => {
    // A batch may wait for another node's lock for longer than PG_REQUEST_TIMEOUT_MS allows one
    // request; charged to the request that started it, every leaf of the batch failed with 503.
    const waited = await runWithTrace({ requestId: 'log-test' }, async () => {
      await nodes[0]!.log({ digest: sha224('background'), length: 1, source: 'data', accountId: 'acct_bg' });
      return currentDatabaseWait()!.waitedMs;
    });
    expect(waited).toBe(0);
  });

  it('a checkpoint smaller than the latest is never stored', async () => {
    const latest = await nodes[0]!.publish();
    const older = await nodes[0]!.checkpointAt(latest.size - 1);
    const after = await stores[0]!.transparencyLog.publishCheckpoint({ size: latest.size - 1, root: older.root, note: older.note });
    expect(after.size).toBe(latest.size);
    expect((await stores[0]!.transparencyLog.latestCheckpoint())?.size).toBe(latest.size);
  });

  it('both nodes build the same tree, and tiles from either agree', async () => {
    await Promise.all(nodes.map((n) => n.sync()));
    expect(nodes[0]!.size).toBe(nodes[1]!.size);
    const t0 = await nodes[0]!.tile({ level: 0, index: 0, width: 256 });
    const t1 = await nodes[1]!.tile({ level: 0, index: 0, width: 256 });
    expect(t0?.equals(t1!)).toBe(true);
    expect(await nodes[0]!.tile({ level: 1, index: 0, width: 256 })).toBeUndefined();
    const entries = await nodes[0]!.tile({ level: 'entries', index: 0, width: 256 });
    expect(entries!.length).toBeGreaterThan(256 * 2);
  });
});
