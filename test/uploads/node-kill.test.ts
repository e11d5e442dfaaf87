/**
 * An API node SIGKILLed in the middle of a PATCH body (2 API nodes as processes, the machine's
 * Redis under a fresh prefix, s3rver): tus-js-client, whose PATCH was going to node A, resumes on
 * node B with HEAD and PATCH, and the digest is node:crypto's. A hashed its PATCHes in its own
 * memory (api/uploads/live-hashes.ts), so B continues the saved state over A's stored segments.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { startCuttingProxy, type CuttingProxy } from '../helpers/cutting-proxy.js';
import { waitFor } from '../helpers/wait.js';
import { SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { attempt, finishedJob, head, MiB, onNode } from './tus-fixture.js';

const SIZE = 16 * MiB;
const CHUNK = 4 * MiB;

describe('an API node killed mid-PATCH', () => {
  let c: Cluster;
  let proxyA: CuttingProxy;
  let redis: Redis;
  beforeAll(async () => {
    // A dead node's lock lapses after UPLOAD_LOCK_MS: 1 s (the minimum) keeps B's wait short.
    // LOG_LEVEL info: B's log says where its hash came from.
    c = await startCluster({ apiNodes: 2, workers: 1, env: { UPLOAD_LOCK_MS: '1000', LOG_LEVEL: 'info' } });
    proxyA = await startCuttingProxy({ host: '127.0.0.1', port: Number(new URL(c.url(0)).port) });
    redis = new Redis(SHARED_REDIS_URL);
  }, 120_000);
  afterAll(async () => {
    redis?.disconnect();
    await proxyA?.close();
    await c?.close();
  });

  it('the client resumes on the other node with HEAD + PATCH and gets node:crypto digest', async () => {
    const data = randomBytes(SIZE);
    const key = c.keys.production;
    // The third PATCH (at 8 MiB) stops 1 MiB into its body, its connection open: A is mid-body.
    const held = proxyA.holdPatchAt(2 * CHUNK, MiB);
    let url: string | undefined;
    const first = attempt(data, {
      endpoint: `${proxyA.url}/v2/uploads`,
      key,
      chunkSize: CHUNK,
      interrupted: true,
      onUrl: (u) => (url = u),
    });
    await held;
    const id = new URL(url!).pathname.split('/').pop()!;
    // A holds the upload's write lock while it receives the body.
    await waitFor(async () => (await redis.exists(`${c.env.QUEUE_PREFIX}:sha224d:tus-lock:${id}`)) === 1, {
      what: 'node A to lock the upload for its PATCH',
    });
    await c.apis[0]!.stop('SIGKILL');
    expect(c.apis[0]!.child.signalCode).toBe('SIGKILL');
    const cut = await first;
    expect(cut.aborted).toBe(true);

    // A committed its first two PATCHes and nothing of the third.
    const onB = onNode(url!, c.url(1));
    expect((await head(onB, key)).headers.get('upload-offset')).toBe(String(2 * CHUNK));
    // tus-js-client: HEAD, then PATCHes from that offset (423 while A's lock lapses, retried).
    const done = await attempt(data, { endpoint: `${c.url(1)}/v2/uploads`, uploadUrl: onB, key, chunkSize: CHUNK });
    expect(done.aborted).toBe(false);
    const final = await head(onB, key);
    expect(final.headers.get('upload-offset')).toBe(String(SIZE));
    const job = await finishedJob(c.url(1), key, final.headers.get('upload-job-url')!);
    expect(job).toMatchObject({ status: 'completed', hash: createHash('sha224').update(data).digest('hex'), size: SIZE });
    // A's hash was in its memory only: B continued the state saved at byte 0 over A's two segments.
    expect(c.apis[1]!.output()).toMatch(/"from":0,[^\n]*continuing another node's hash/);
  }, 60_000);
});
