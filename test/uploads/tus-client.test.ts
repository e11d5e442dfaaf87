/**
 * /v2/uploads driven by the real tus client (tus-js-client 4.3.1, unmodified) in embedded mode and
 * against a cluster of 2 API nodes round-robin (Redis records and locks, s3rver segments):
 * an upload (TUS_TEST_MIB, README "Tests") cut at three random offsets by destroying its PATCH
 * mid-body and resumed on the other node ends with node:crypto's digest; two PATCHes at once
 * serialise; a wrong Upload-Checksum is 460; an expired upload answers 410 with its bytes gone;
 * in the cluster, a node SIGKILLed mid-PATCH leaves the upload to the other node.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { sha224Hex } from '../helpers/digests.js';
import { startTarget, type Target, type TargetName } from '../helpers/targets.js';
import { waitFor } from '../helpers/wait.js';
import { SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { startCuttingProxy, type CuttingProxy } from '../helpers/cutting-proxy.js';
import { attempt, finishedJob, head, MiB, onNode } from './tus-fixture.js';

const segmentsStored = (t: Target): string[] => t.storedBlobs().filter((f) => f.includes('resumable'));

/**
 * The cut-and-resume upload's size: 16 MiB by default, whose segments are 0.5–10 MiB (the first
 * always one S3 PUT, a later one over the 5 MiB part, so multipart, in most runs); TUS_TEST_MIB=64
 * is the full variant, every segment but the first and last multipart.
 */
const UPLOAD_MIB = Number(process.env.TUS_TEST_MIB ?? 16);

describe.each<TargetName>(['sqlite', 'cluster'])('tus-js-client against /v2/uploads on %s', (name) => {
  let t: Target;
  let key: string;
  let proxies: CuttingProxy[] = [];
  beforeAll(async () => {
    t = await startTarget(name, {
      MAX_STREAM_BYTES: String(Math.max(128, UPLOAD_MIB) * MiB),
      BLOB_SWEEP_GRACE_SECONDS: '60',
      // A killed node's lock lapses after UPLOAD_LOCK_MS: 1 s (the minimum) keeps the other node's wait short.
      UPLOAD_LOCK_MS: '1000',
    });
    key = t.keys.production;
    proxies = await Promise.all(t.urls.map((url) => startCuttingProxy({ host: '127.0.0.1', port: Number(new URL(url).port) })));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await t?.close();
  });
  const node = (i: number): string => t.urls[i % t.urls.length]!;
  const proxy = (i: number): CuttingProxy => proxies[i % proxies.length]!;

  it(`a ${UPLOAD_MIB} MiB upload cut at 3 random offsets and resumed on the other node each time gives node:crypto digest`, async () => {
    const data = randomBytes(UPLOAD_MIB * MiB);
    const expected = createHash('sha224').update(data).digest('hex');
    // One cut in each third of the file, at a random place.
    const cuts = [0, 1, 2].map((third) => Math.floor(((third + 0.1 + Math.random() * 0.8) * data.length) / 3));
    let url: string | undefined;
    let offset = 0;
    for (const [i, cutAt] of cuts.entries()) {
      // Through node i's proxy, which destroys the PATCH's connection `cutAt - offset` bytes into its body.
      const base = proxy(i).url;
      const run = await attempt(data, {
        endpoint: `${base}/v2/uploads`,
        uploadUrl: url && onNode(url, base),
        key,
        cut: { proxy: proxy(i), bodyBytes: cutAt - offset },
      });
      expect(run.aborted).toBe(true);
      url = run.url;
      // Every byte that reached the server before the cut is stored and hashed: HEAD on the other
      // node reports exactly the cut offset once the cut PATCH has committed.
      const next = onNode(url, node(i + 1));
      let seen: string | null = null;
      await waitFor(async () => (seen = (await head(next, key)).headers.get('upload-offset')) === String(cutAt), {
        timeoutMs: 30_000,
        what: `the offset to reach the cut at ${cutAt}`,
      }).catch((err: unknown) => {
        // Below the cut: bytes lost; unchanged: the cut PATCH never ended (BODY_IDLE_TIMEOUT_MS is 30 s too).
        throw new Error(`${String(err)}; HEAD last said ${seen} (before the cut: ${offset})`);
      });
      offset = cutAt;
    }
    expect(cuts.map((_, i) => proxy(i).cuts()).every((n) => n > 0)).toBe(true);
    const done = await attempt(data, { endpoint: `${node(3)}/v2/uploads`, uploadUrl: onNode(url!, node(3)), key });
    expect(done.aborted).toBe(false);
    const final = await head(onNode(url!, node(0)), key);
    expect(final.headers.get('upload-offset')).toBe(String(data.length));
    const job = await finishedJob(node(1), key, final.headers.get('upload-job-url')!);
    expect(job).toMatchObject({ status: 'completed', hash: expected, size: data.length, filename: 'big.iso' });
    // The digest was known at the last byte: the segments are gone.
    await waitFor(() => segmentsStored(t).length === 0, { what: 'the segments to be deleted' });
  }, 180_000);

  it('two concurrent PATCHes of one upload: one is stored, the other gets 423 and nothing is corrupted', async () => {
    const data = randomBytes(8 * MiB);
    const created = await fetch(`${node(0)}/v2/uploads`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(data.length) },
    });
    const path = created.headers.get('location')!;
    const patch = (i: number, body: Uint8Array<ArrayBuffer>) =>
      fetch(`${node(i)}${path}`, {
        method: 'PATCH',
        headers: { 'X-API-Key': key, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        body,
      });
    const answers = await Promise.all([
      patch(0, new Uint8Array(data.subarray(0, 4 * MiB))),
      patch(1, new Uint8Array(data.subarray(0, 4 * MiB))),
      patch(0, new Uint8Array(data.subarray(0, 4 * MiB))),
    ]);
    const statuses = answers.map((r) => r.status).sort();
    // Exactly one wins; the others are refused: 423 while it writes, 409 once it committed.
    expect(statuses.filter((s) => s === 204)).toHaveLength(1);
    expect(statuses.every((s) => s === 204 || s === 409 || s === 423)).toBe(true);
    for (const r of answers.filter((a) => a.status !== 204)) {
      expect(['UPLOAD_LOCKED', 'UPLOAD_OFFSET_MISMATCH']).toContain((await r.json()).error.code);
    }
    expect((await head(`${node(1)}${path}`, key)).headers.get('upload-offset')).toBe(String(4 * MiB));
    const rest = await attempt(data, { endpoint: `${node(1)}/v2/uploads`, uploadUrl: `${node(1)}${path}`, key });
    expect(rest.aborted).toBe(false);
    const final = await head(`${node(0)}${path}`, key);
    const job = await finishedJob(node(0), key, final.headers.get('upload-job-url')!);
    expect(job.hash).toBe(sha224Hex(data));
  }, 60_000);

  it('a PATCH whose Upload-Checksum is wrong is 460 and its bytes are discarded', async () => {
    const data = randomBytes(1 * MiB);
    const created = await fetch(`${node(0)}/v2/uploads`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(data.length) },
    });
    const path = created.headers.get('location')!;
    const send = (checksum: string) =>
      fetch(`${node(1)}${path}`, {
        method: 'PATCH',
        headers: {
          'X-API-Key': key,
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': '0',
          'Upload-Checksum': checksum,
          'Content-Type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(data),
      });
    const wrong = await send(`sha256 ${createHash('sha256').update('other bytes').digest('base64')}`);
    expect(wrong.status).toBe(460);
    expect((await wrong.json()).error.code).toBe('CHECKSUM_MISMATCH');
    expect((await head(`${node(0)}${path}`, key)).headers.get('upload-offset')).toBe('0');
    await waitFor(() => !segmentsStored(t).some((f) => f.includes(path.split('/').pop()!)), {
      what: 'the discarded segment to be deleted',
    });
    const right = await send(`sha1 ${createHash('sha1').update(data).digest('base64')}`);
    expect(right.status).toBe(204);
    expect(right.headers.get('upload-offset')).toBe(String(data.length));
  }, 60_000);

  // Embedded expiry (records in the server's memory) is covered with a short UPLOAD_EXPIRY_SECONDS in tus-protocol.test.ts.
  it.runIf(name === 'cluster')(
    'an expired upload answers 410 and its bytes are deleted',
    async () => {
      const data = randomBytes(2 * MiB);
      const run = await attempt(data, { endpoint: `${proxy(0).url}/v2/uploads`, key, cut: { proxy: proxy(0), bodyBytes: MiB } });
      const url = onNode(run.url, node(1));
      const id = new URL(url).pathname.split('/').pop()!;
      // The cut PATCH has committed (its record write would otherwise undo the expiry below).
      await waitFor(async () => (await head(url, key)).headers.get('upload-offset') === String(MiB), { what: 'the cut PATCH to commit' });
      expect(segmentsStored(t).some((f) => f.includes(id))).toBe(true);
      await expireNow(t, id);
      const res = await head(url, key);
      expect(res.status).toBe(410);
      const patch = await fetch(url, {
        method: 'PATCH',
        headers: { 'X-API-Key': key, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        body: data,
      });
      expect(patch.status).toBe(410);
      expect((await patch.json()).error.code).toBe('UPLOAD_EXPIRED');
      await waitFor(() => !segmentsStored(t).some((f) => f.includes(id)), { what: "the expired upload's bytes to be deleted" });
    },
    60_000,
  );

  // Last: node 0 stays dead.
  it.runIf(name === 'cluster')(
    'node 0 SIGKILLed mid-PATCH: the client resumes on node 1 with HEAD + PATCH and gets node:crypto digest',
    async () => {
      const data = randomBytes(16 * MiB);
      const chunk = 4 * MiB;
      // The third PATCH (at 8 MiB) stops 1 MiB into its body with its connection open: node 0 is mid-body.
      const held = proxy(0).holdPatchAt(2 * chunk, MiB);
      let url: string | undefined;
      const first = attempt(data, {
        endpoint: `${proxy(0).url}/v2/uploads`,
        key,
        chunkSize: chunk,
        interrupted: true,
        onUrl: (u) => (url = u),
      });
      await held;
      const id = new URL(url!).pathname.split('/').pop()!;
      const redis = new Redis(SHARED_REDIS_URL);
      try {
        // Node 0 holds the upload's write lock while it receives the body.
        await waitFor(async () => (await redis.exists(`${t.config.QUEUE_PREFIX}:sha224d:tus-lock:${id}`)) === 1, {
          what: 'node 0 to lock the upload for its PATCH',
        });
        await t.killApi!(0);
        expect((await first).aborted).toBe(true);
        // Node 0 committed its two whole PATCHes, hashed in its memory (the saved state is still at byte 0), and nothing of the third.
        const record = JSON.parse((await redis.get(`${t.config.QUEUE_PREFIX}:sha224d:tus:${id}`))!) as {
          offset: number;
          hashOffset: number;
        };
        expect(record).toMatchObject({ offset: 2 * chunk, hashOffset: 0 });
      } finally {
        redis.disconnect();
      }
      const onNode1 = onNode(url!, node(1));
      expect((await head(onNode1, key)).headers.get('upload-offset')).toBe(String(2 * chunk));
      // tus-js-client: HEAD, then PATCHes from that offset (423 while node 0's lock lapses, retried).
      const done = await attempt(data, { endpoint: `${node(1)}/v2/uploads`, uploadUrl: onNode1, key, chunkSize: chunk });
      expect(done.aborted).toBe(false);
      const final = await head(onNode1, key);
      expect(final.headers.get('upload-offset')).toBe(String(data.length));
      const job = await finishedJob(node(1), key, final.headers.get('upload-job-url')!);
      expect(job).toMatchObject({ status: 'completed', hash: sha224Hex(data), size: data.length });
    },
    60_000,
  );
});

/**
 * Moves an upload's expiry into the past, as the clock eventually would: in the cluster, by
 * rewriting its record in Redis (the test's own QUEUE_PREFIX).
 */
async function expireNow(t: Target, id: string): Promise<void> {
  const redis = new Redis(SHARED_REDIS_URL);
  try {
    const recordKey = `${t.config.QUEUE_PREFIX}:sha224d:tus:${id}`;
    const record = JSON.parse((await redis.get(recordKey))!) as { expiresAt: number };
    record.expiresAt = Date.now() - 1000;
    await redis.set(recordKey, JSON.stringify(record), 'KEEPTTL');
  } finally {
    redis.disconnect();
  }
}
