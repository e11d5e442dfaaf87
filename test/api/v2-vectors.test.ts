/**
 * Known-answer vectors through the HTTP API: NIST CAVP SHAVS (ShortMsg, LongMsg, Monte) via
 * /v2/hash, and HMAC-SHA-224 (RFC 4231, NIST HMAC [L=28], Wycheproof) via /v2/hmac.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeHash } from '../../shared/jobs/compute.js';
import { postJson } from '../helpers/api-server.js';
import { startTarget, TARGETS, type Target } from '../helpers/targets.js';
import { loadMonte, loadNistHmac224, loadRfc4231, loadShaVectors, loadWycheproofHmac224, runMonte } from '../helpers/vectors.js';

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

// The shared core does not depend on the target, so its 100 Monte checkpoints are checked once.
it('SHA224Monte.rsp: all 100 checkpoints through the shared core', () => {
  const { seed, checkpoints } = loadMonte();
  expect(checkpoints).toHaveLength(100);
  const core = (msg: Buffer) => Buffer.from(computeHash({ data: msg.toString('hex'), encoding: 'hex' }).digest, 'hex');
  expect(runMonte(seed, 100, core)).toEqual(checkpoints.map((cp) => cp.md));
});

describe.each(TARGETS)('vectors through the API on %s', (target) => {
  let s: Target;
  let h: Record<string, string>;
  // Inline path on SQLite; the queue path on PostgreSQL (in-process queue) and on the cluster
  // (BullMQ to real worker processes): every path must give the same answers.
  beforeAll(async () => {
    s = await startTarget(target, target === 'sqlite' ? {} : { INLINE_MAX_BYTES: '0' });
    h = { 'x-api-key': s.keys.production };
  });
  afterAll(() => s.close());

  const hashHex = async (hex: string): Promise<string> => {
    const r = await postJson(`${s.url}/v2/hash`, { data: hex, encoding: 'hex' }, h);
    expect(r.status).toBe(200);
    return r.body.hash as string;
  };

  it.each(['SHA224ShortMsg.rsp', 'SHA224LongMsg.rsp'] as const)('%s: every vector', async (file) => {
    const vectors = loadShaVectors(file);
    expect(vectors.length).toBe(file === 'SHA224ShortMsg.rsp' ? 65 : 64);
    await inBatches(vectors, 16, async (v) => {
      expect(await hashHex(v.msg.toString('hex')), `Len=${v.len}`).toBe(v.md);
    });
  });

  it('SHA224Monte.rsp: the first checkpoint through the API', async () => {
    const { seed, checkpoints } = loadMonte();
    // 1000 chained requests: each input is the previous three digests.
    let [a, b, c] = [seed, seed, seed];
    for (let i = 0; i < 1000; i++) {
      const md = Buffer.from(await hashHex(Buffer.concat([a, b, c]).toString('hex')), 'hex');
      [a, b, c] = [b, c, md];
    }
    expect(c.toString('hex')).toBe(checkpoints[0]!.md);
  });

  const hmacHex = async (keyHex: string, msgHex: string): Promise<string> => {
    const r = await postJson(`${s.url}/v2/hmac`, { data: msgHex, encoding: 'hex', key: keyHex, key_encoding: 'hex' }, h);
    expect(r.status).toBe(200);
    return r.body.hmac as string;
  };

  it('RFC 4231 §4: all 7 HMAC-SHA-224 test cases', async () => {
    const vectors = loadRfc4231();
    expect(vectors).toHaveLength(7);
    for (const v of vectors) {
      const mac = await hmacHex(v.key_hex, v.data_hex);
      expect(mac.slice(0, v.truncate_bits ? v.truncate_bits / 4 : 56), v.name).toBe(v.hmac_sha224_hex);
    }
  });

  it('NIST CAVP HMAC [L=28]: all 375 records (Mac truncated to Tlen)', async () => {
    const vectors = loadNistHmac224();
    expect(vectors).toHaveLength(375);
    await inBatches(vectors, 25, async (v) => {
      expect((await hmacHex(v.key.toString('hex'), v.msg.toString('hex'))).slice(0, v.tlen * 2)).toBe(v.mac);
    });
  });

  it('Wycheproof hmac_sha224_test.json: valid tags match, invalid tags do not', async () => {
    const tests = loadWycheproofHmac224();
    expect(tests).toHaveLength(172);
    await inBatches(tests, 25, async (t) => {
      const mac = (await hmacHex(t.key, t.msg)).slice(0, t.tagSize / 4);
      if (t.result === 'valid') expect(mac, `tcId ${t.tcId}`).toBe(t.tag);
      else expect(mac, `tcId ${t.tcId}`).not.toBe(t.tag);
    });
  });
});
