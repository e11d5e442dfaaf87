/**
 * Proof of existence over HTTP (docs/proving.md), on SQLite and PostgreSQL: `"log": true` on /v2/hash
 * and /v2/log answer receipts that verify against the public checkpoint and key; receipts are read
 * back by their account only; consistency proofs; the public checkpoint, tiles and well-known key;
 * RFC 3161 time-stamps checked by OpenSSL itself (`openssl ts -verify`), SHA-224 and SHA-256, with nonce.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckpoint } from '../../shared/proof/checkpoint.js';
import { decodeLeaf } from '../../shared/proof/leaf.js';
import { hashLeaf, verifyConsistency, verifyInclusion } from '../../shared/proof/merkle.js';
import { parseVerifierKey } from '../../shared/proof/note.js';
import { parseTlogProof } from '../../shared/proof/tlog-proof.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';

interface ReceiptJson {
  id: string;
  index: number;
  leaf: { digest: string; length: number; source: string; account: string; time: string };
  leaf_base64: string;
  tree_size: number;
  root_hash: string;
  inclusion_proof: string[];
  checkpoint: string;
  tlog_proof: string;
  log_key: string;
}

describe.each(['sqlite', 'postgres'] as const)('proof of existence over HTTP on %s', (engine) => {
  let s: TestServer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-proof-'));
  beforeAll(async () => {
    s = await startTestServer({ engine, env: { LOG_ORIGIN: 'proof.test/log', LOG_CHECKPOINT_INTERVAL_MS: '0' } });
  });
  afterAll(async () => {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = (p: string, body: unknown, key = s.keys.production): Promise<Response> =>
    fetch(`${s.url}${p}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const get = (p: string, key: string | null = s.keys.production): Promise<Response> =>
    fetch(`${s.url}${p}`, { headers: key ? { 'x-api-key': key } : {} });

  async function logKey(): Promise<string> {
    const res = await get('/.well-known/sha224d-log', null);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    const body = (await res.json()) as { verifier_key: string; origin: string };
    expect(body.origin).toBe('proof.test/log');
    return body.verifier_key;
  }

  function verifyReceipt(r: ReceiptJson, key: string, data: Buffer): void {
    const verifier = parseVerifierKey(key);
    const cp = openCheckpoint(r.checkpoint, verifier);
    const leafBytes = Buffer.from(r.leaf_base64, 'base64');
    const leaf = decodeLeaf(leafBytes);
    expect(leaf.digest).toBe(createHash('sha224').update(data).digest('hex'));
    expect(cp.size).toBe(r.tree_size);
    const proof = r.inclusion_proof.map((h) => Buffer.from(h, 'base64'));
    expect(verifyInclusion(hashLeaf(leafBytes), r.index, cp.size, proof, cp.root)).toBe(true);
    const tlog = parseTlogProof(r.tlog_proof);
    expect(tlog.extra?.equals(leafBytes)).toBe(true);
    expect(tlog.checkpoint).toBe(r.checkpoint);
  }

  it('"log": true on /v2/hash answers the hash and a receipt that verifies offline; the account is a tag', async () => {
    const key = await logKey();
    const res = await post('/v2/hash', { data: 'abc', log: true });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { hash: string; receipt: ReceiptJson };
    expect(body.hash).toBe('23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7');
    expect(body.receipt.log_key).toBe(key);
    expect(body.receipt.leaf).toMatchObject({ digest: body.hash, length: 3, source: 'data' });
    expect(body.receipt.leaf.account).not.toContain(s.accountId);
    expect(body.receipt.leaf_base64).not.toContain(Buffer.from(s.accountId).toString('base64'));
    verifyReceipt(body.receipt, key, Buffer.from('abc'));
    // Without "log" nothing is logged and no receipt is carried.
    const plain = (await (await post('/v2/hash', { data: 'abc' })).json()) as Record<string, unknown>;
    expect(plain.receipt).toBeUndefined();
  });

  it('/v2/log logs a digest alone; GET /v2/receipts/{id} answers its account only', async () => {
    const digest = createHash('sha224').update('offline data').digest('hex');
    const res = await post('/v2/log', { digest, length: 12 });
    expect(res.status).toBe(200);
    const { receipt } = (await res.json()) as { receipt: ReceiptJson };
    expect(receipt.leaf).toMatchObject({ digest, length: 12, source: 'digest' });
    verifyReceipt(receipt, receipt.log_key, Buffer.from('offline data'));

    const again = await get(`/v2/receipts/${receipt.id}`, s.keys.read_only);
    expect(again.status).toBe(200);
    const later = ((await again.json()) as { receipt: ReceiptJson }).receipt;
    expect(later.leaf_base64).toBe(receipt.leaf_base64);
    verifyReceipt(later, receipt.log_key, Buffer.from('offline data'));

    const other = await s.newKey({ plan: 'pro' });
    expect((await get(`/v2/receipts/${receipt.id}`, other.secret)).status).toBe(404);
    expect((await get('/v2/receipts/999999', s.keys.production)).status).toBe(404);
    expect((await get('/v2/receipts/abc', s.keys.production)).status).toBe(400);
    expect((await get(`/v2/receipts/${receipt.id}`, null)).status).toBe(401);
    expect((await post('/v2/log', { digest: 'zz' })).status).toBe(400);
  });

  it('consistency proofs between checkpoints verify; sizes out of range are refused', async () => {
    for (let i = 0; i < 5; i++) expect((await post('/v2/hash', { data: `item ${i}`, log: true })).status).toBe(200);
    const verifier = parseVerifierKey(await logKey());
    const res = await get('/v2/log/consistency?from=1');
    expect(res.status).toBe(200);
    const c = (await res.json()) as { from: number; to: number; proof: string[]; from_checkpoint: string; to_checkpoint: string };
    const a = openCheckpoint(c.from_checkpoint, verifier);
    const b = openCheckpoint(c.to_checkpoint, verifier);
    expect(a.size).toBe(1);
    expect(b.size).toBe(c.to);
    expect(c.to).toBeGreaterThanOrEqual(7);
    const proof = c.proof.map((h) => Buffer.from(h, 'base64'));
    expect(verifyConsistency(1, c.to, a.root, b.root, proof)).toBe(true);
    expect((await get('/v2/log/consistency?from=5&to=3')).status).toBe(400);
    expect((await get('/v2/log/consistency?from=1&to=100000')).status).toBe(400);
  });

  it('the public checkpoint and tiles: the root rebuilt from the level-0 tile matches, headers cacheable', async () => {
    const verifier = parseVerifierKey(await logKey());
    const res = await get('/log/checkpoint', null);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const cp = openCheckpoint(await res.text(), verifier);
    const tile = await get(`/log/tile/0/000.p/${cp.size}`, null);
    expect(tile.status).toBe(200);
    expect(tile.headers.get('cache-control')).toBe('public, max-age=60');
    const hashes = Buffer.from(await tile.arrayBuffer());
    expect(hashes.length).toBe(cp.size * 32);
    // MTH from the leaf hashes (the spec's recursion).
    const h = (...p: Buffer[]): Buffer => createHash('sha256').update(Buffer.concat(p)).digest();
    const mth = (xs: Buffer[]): Buffer => {
      if (xs.length === 1) return xs[0]!;
      let k = 1;
      while (k * 2 < xs.length) k *= 2;
      return h(Buffer.from([1]), mth(xs.slice(0, k)), mth(xs.slice(k)));
    };
    const leaves = Array.from({ length: cp.size }, (_, i) => hashes.subarray(i * 32, i * 32 + 32));
    expect(mth(leaves).equals(cp.root)).toBe(true);
    const entries = await get(`/log/tile/entries/000.p/${cp.size}`, null);
    expect(entries.status).toBe(200);
    expect((await get('/log/tile/0/000', null)).status).toBe(404);
    expect((await get('/log/tile/0/1', null)).status).toBe(404);
  });

  it('POST /v2/timestamp: openssl ts -verify says Verification: OK for SHA-224 and SHA-256, nonce checked', async () => {
    const data = path.join(dir, 'f');
    fs.writeFileSync(data, 'proof of existence\n');
    const certRes = await get('/.well-known/sha224d-tsa.pem', null);
    expect(certRes.status).toBe(200);
    const ca = path.join(dir, 'tsa.pem');
    fs.writeFileSync(ca, await certRes.text());
    for (const alg of ['sha224', 'sha256']) {
      const tsq = path.join(dir, `${alg}.tsq`);
      const tsr = path.join(dir, `${alg}.tsr`);
      execFileSync('openssl', ['ts', '-query', `-${alg}`, '-data', data, '-cert', '-out', tsq]);
      const res = await fetch(`${s.url}/v2/timestamp`, {
        method: 'POST',
        headers: { 'x-api-key': s.keys.production, 'content-type': 'application/timestamp-query' },
        body: new Uint8Array(fs.readFileSync(tsq)),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/timestamp-reply');
      fs.writeFileSync(tsr, Buffer.from(await res.arrayBuffer()));
      const byData = execFileSync('openssl', ['ts', '-verify', '-data', data, '-in', tsr, '-CAfile', ca], { stdio: 'pipe' }).toString();
      expect(byData).toContain('Verification: OK');
      const byQuery = execFileSync('openssl', ['ts', '-verify', '-queryfile', tsq, '-in', tsr, '-CAfile', ca], {
        stdio: 'pipe',
      }).toString();
      expect(byQuery).toContain('Verification: OK');
      const text = execFileSync('openssl', ['ts', '-reply', '-in', tsr, '-text'], { stdio: 'pipe' }).toString();
      expect(text).toContain(`Hash Algorithm: ${alg}`);
      expect(text).toContain('Policy OID: 2.25.263743475245763918334981377265087041885');
      expect(text).toMatch(/Nonce: 0x[0-9A-F]+/);
    }
  });

  it('/v2/timestamp refusals: wrong type 415, garbage a rejection TimeStampResp, no key 401, too large 413', async () => {
    const call = (body: Buffer, type = 'application/timestamp-query', key: string | null = s.keys.production): Promise<Response> =>
      fetch(`${s.url}/v2/timestamp`, {
        method: 'POST',
        headers: { ...(key ? { 'x-api-key': key } : {}), 'content-type': type },
        body: new Uint8Array(body),
      });
    expect((await call(Buffer.from('x'), 'application/octet-stream')).status).toBe(415);
    expect((await call(Buffer.from('x'), undefined, null)).status).toBe(401);
    expect((await call(Buffer.alloc(20_000))).status).toBe(413);
    const garbage = await call(Buffer.from('not der'));
    expect(garbage.status).toBe(200);
    const tsr = path.join(dir, 'bad.tsr');
    fs.writeFileSync(tsr, Buffer.from(await garbage.arrayBuffer()));
    const text = execFileSync('openssl', ['ts', '-reply', '-in', tsr, '-text'], { stdio: 'pipe' }).toString();
    expect(text).toContain('Status: Rejected');
    expect(text).toContain('Failure info: the data submitted has the wrong format');
  });
});
