/**
 * Offline verification (docs/proving.md): the SDK's verifyReceipt and `sha224d verify FILE --receipt R
 * --log-key K` run with no server at all. A 100 MiB file's digest is logged, the server is closed,
 * and the CLI proves the file's inclusion from the receipt alone; another file, another key, a
 * tampered proof all fail (exit 1). The SDK's own SHA-224 is checked against node:crypto.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha224Hex } from '../../api/clients/typescript/src/receipt-sha224.js';
import { ReceiptVerificationError, verifyReceipt } from '../../api/clients/typescript/src/node.js';
import { startTestServer } from '../helpers/api-server.js';
import { runCli, type CliRun } from '../clients/typescript/helpers.js';

function run(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  // No SHA224D_URL and no key: nothing to reach, and nothing tried.
  return runCli(args, { env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env } });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-offline-'));
const big = path.join(dir, 'big.bin');
const small = path.join(dir, 'small.txt');
let logKey = '';
let bigReceipt: { tlog_proof: string; log_key: string; index: number };
let smallReceipt: { tlog_proof: string; log_key: string; index: number };

beforeAll(async () => {
  // 100 MiB: 1 MiB of random bytes repeated, written in pieces.
  const piece = randomBytes(1024 * 1024);
  const fd = fs.openSync(big, 'w');
  const hash = createHash('sha224');
  for (let i = 0; i < 100; i++) {
    piece[0] = i;
    fs.writeSync(fd, piece);
    hash.update(piece);
  }
  fs.closeSync(fd);
  fs.writeFileSync(small, 'a small document\n');
  const server = await startTestServer({ env: { LOG_ORIGIN: 'offline.test/log', LOG_CHECKPOINT_INTERVAL_MS: '0' } });
  try {
    const post = async (body: unknown): Promise<typeof bigReceipt> => {
      const res = await fetch(`${server.url}/v2/log`, {
        method: 'POST',
        headers: { 'x-api-key': server.keys.production, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { receipt: typeof bigReceipt }).receipt;
    };
    bigReceipt = await post({ digest: hash.digest('hex'), length: 100 * 1024 * 1024 });
    const smallDigest = createHash('sha224').update(fs.readFileSync(small)).digest('hex');
    smallReceipt = await post({ digest: smallDigest, length: fs.statSync(small).size });
    logKey = ((await (await fetch(`${server.url}/.well-known/sha224d-log`)).json()) as { verifier_key: string }).verifier_key;
  } finally {
    await server.close();
  }
  fs.writeFileSync(path.join(dir, 'big.receipt.json'), JSON.stringify({ success: true, receipt: bigReceipt }));
  fs.writeFileSync(path.join(dir, 'small.tlog-proof'), smallReceipt.tlog_proof);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('sha224d verify --receipt, with the server gone', () => {
  it('proves a 100 MiB file from its receipt and the pinned key', async () => {
    const r = await run(['verify', big, '--receipt', path.join(dir, 'big.receipt.json'), '--log-key', logKey]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${big}: OK`);
    expect(r.stdout).toContain(`(${100 * 1024 * 1024} bytes)`);
    expect(r.stdout).toContain(`is entry ${bigReceipt.index} of the log offline.test/log, logged at `);
    expect(r.stdout).toContain(`in its signed checkpoint of tree size ${bigReceipt.index + 1} (root `);
  });

  it('reads a bare tlog-proof too, the key from SHA224D_LOG_KEY; --json', async () => {
    const r = await run(['--json', 'verify', small, '--receipt', path.join(dir, 'small.tlog-proof')], { SHA224D_LOG_KEY: logKey });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as { valid: boolean; index: number; origin: string; length: number };
    expect(body).toMatchObject({ valid: true, index: smallReceipt.index, origin: 'offline.test/log', length: 17 });
  });

  it('fails (exit 1) for another file, another key or a tampered proof; warns when the key is not pinned', async () => {
    const other = await run(['verify', small, '--receipt', path.join(dir, 'big.receipt.json'), '--log-key', logKey]);
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(/FAILED \(the receipt is for another digest/);

    const otherKey = logKey.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    const wrongKey = await run(['verify', big, '--receipt', path.join(dir, 'big.receipt.json'), '--log-key', otherKey]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stdout).toContain('the log key id does not match');

    const tampered = path.join(dir, 'tampered.tlog-proof');
    const lines = smallReceipt.tlog_proof.split('\n');
    lines[2] = `index ${smallReceipt.index === 0 ? 1 : 0}`;
    fs.writeFileSync(tampered, lines.join('\n'));
    const t = await run(['verify', small, '--receipt', tampered, '--log-key', logKey]);
    expect(t.code).toBe(1);
    expect(t.stdout).toContain('the inclusion proof does not lead to the checkpoint root');

    const unpinned = await run(['verify', big, '--receipt', path.join(dir, 'big.receipt.json')]);
    expect(unpinned.code).toBe(0);
    expect(unpinned.stderr).toContain('pin the log key with --log-key');
  });
});

describe('SDK verifyReceipt (no network)', () => {
  it('verifies from the data or the digest, and names what it proved', async () => {
    const data = fs.readFileSync(small);
    const proven = await verifyReceipt(smallReceipt, { data, logKey });
    expect(proven).toMatchObject({ origin: 'offline.test/log', index: smallReceipt.index, length: 17, source: 'digest', treeSize: 2 });
    expect(proven.loggedAt.getTime()).toBeGreaterThan(Date.now() - 600_000);
    await expect(verifyReceipt(smallReceipt.tlog_proof, { data: Buffer.from('other'), logKey })).rejects.toBeInstanceOf(
      ReceiptVerificationError,
    );
    const note = smallReceipt.tlog_proof.replace(/\n\n(.*)\n(\d+)\n/, (_m, o: string, n: string) => `\n\n${o}\n${Number(n) + 1}\n`);
    await expect(verifyReceipt(note, { data, logKey })).rejects.toThrow(/signature does not verify/);
  });

  it("the SDK's SHA-224 matches node:crypto", () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_000]) {
      const buf = randomBytes(n);
      expect(sha224Hex(buf)).toBe(createHash('sha224').update(buf).digest('hex'));
    }
    expect(sha224Hex(Buffer.from('abc'))).toBe('23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7');
  });
});
