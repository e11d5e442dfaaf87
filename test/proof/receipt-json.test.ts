/**
 * A receipt's JSON written from parts (api/http/receipt-body.ts jsonWithReceipt) is byte for byte
 * what JSON.stringify writes for the same answer, for receipts of one batch and of later batches
 * (the proof hashes and checkpoint pieces a batch's receipts share), a log whose origin needs
 * escaping in JSON, and receipts read back; and every hash it carries verifies against its checkpoint.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonWithReceipt, receiptBody } from '../../api/http/receipt-body.js';
import { LEAF_SOURCES } from '../../shared/proof/leaf.js';
import { TransparencyLog } from '../../shared/proof/log.js';
import { logKeyOf } from '../../shared/proof/log-key.js';
import { hashLeaf, verifyInclusion } from '../../shared/proof/merkle.js';
import { parseTlogProof } from '../../shared/proof/tlog-proof.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';

const sha224 = (s: string): string => createHash('sha224').update(s).digest('hex');

describe.each(['test.example/log', 'tëst.example/"log"\\ü'])('receipt JSON of the log %s', (origin) => {
  let store: KyselyAccountStore;
  let log: TransparencyLog;
  const key = logKeyOf(origin, generateKeyPairSync('ed25519').privateKey);

  beforeAll(async () => {
    store = await createStore({ sqlitePath: ':memory:' });
    log = new TransparencyLog(store.transparencyLog, key);
  });
  afterAll(async () => {
    await store.close();
  });

  it('matches JSON.stringify of the same answer, batch after batch', async () => {
    const head = { success: true, hash: sha224('x'), algorithm: 'sha224', output: 'hex', timing_ms: 0.25 };
    for (const batch of [1, 7, 64, 3]) {
      const receipts = await Promise.all(
        Array.from({ length: batch }, (_, i) =>
          log.log({
            digest: sha224(`${batch}:${i}`),
            length: i * 1000,
            source: LEAF_SOURCES[i % LEAF_SOURCES.length]!,
            accountId: `a${i % 3}`,
          }),
        ),
      );
      for (const receipt of receipts) {
        const logged = { receipt, logKey: key.verifierKey };
        const expected = JSON.stringify({ ...head, receipt: receiptBody(logged) });
        expect(jsonWithReceipt(head, logged).toString('utf8')).toBe(expected);
        expect(jsonWithReceipt({ success: true }, logged).toString('utf8')).toBe(
          JSON.stringify({ success: true, receipt: receiptBody(logged) }),
        );
        const body = JSON.parse(jsonWithReceipt(head, logged).toString('utf8')) as {
          receipt: {
            inclusion_proof: string[];
            tree_size: number;
            root_hash: string;
            leaf_base64: string;
            checkpoint: string;
            tlog_proof: string;
          };
        };
        const proof = body.receipt.inclusion_proof.map((h) => Buffer.from(h, 'base64'));
        const leaf = Buffer.from(body.receipt.leaf_base64, 'base64');
        // The tlog-proof it writes reads back as the receipt's own leaf, index, hashes and checkpoint.
        expect(parseTlogProof(body.receipt.tlog_proof)).toEqual({
          extra: leaf,
          index: receipt.index,
          hashes: proof,
          checkpoint: body.receipt.checkpoint,
        });
        expect(
          verifyInclusion(hashLeaf(leaf), receipt.index, body.receipt.tree_size, proof, Buffer.from(body.receipt.root_hash, 'base64')),
        ).toBe(true);
      }
    }
    const readBack = await log.receipt(2);
    const logged = { receipt: readBack, logKey: key.verifierKey };
    expect(jsonWithReceipt({}, logged).toString('utf8')).toBe(JSON.stringify({ receipt: receiptBody(logged) }));
  });
});
