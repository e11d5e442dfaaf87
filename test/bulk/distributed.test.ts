/**
 * Bulk jobs in distributed mode (docs/api.md "Bulk jobs"): an API node and two bulk workers on the
 * machine's Redis (a fresh QUEUE_PREFIX), PostgreSQL and s3rver. Jobs are submitted while no
 * worker serves the bulk queue, so what happens before the chunks run is fixed: a job is cancelled
 * with nothing run, an object of an S3 source is deleted after its listing. Then two bulk workers
 * start and both take chunks. Results are checked against node:crypto, in input order; the S3
 * credentials are looked for in Redis, the logs and the database, and found nowhere.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { BULK_QUEUE_NAME } from '../../shared/naming.js';
import { bullPrefixOf } from '../../shared/queue/bullmq-wire.js';
import { checkResults, ndjsonBody, postNdjson } from './items.js';
import { fastBody, sha224Of, startHoldServer } from './hold-server.js';

const ITEMS = Number(process.env.BULK_TEST_ITEMS ?? 20_000);
const OBJECTS = Number(process.env.BULK_TEST_OBJECTS ?? 300);
/** Chunks of 100 items in npm test, so both bulk workers take many; 200 chunks for a million items. */
const CHUNK_ITEMS = Math.max(100, Math.ceil(ITEMS / 200));
/** The full-size runs (a million items, 10,000 objects) take minutes on two shared cores. */
const SLOW_MS = Math.max(150_000, ITEMS / 4, OBJECTS * 30);
const SOURCE_BUCKET = `source-${randomBytes(4).toString('hex')}`;
/** Sent as the source's session token: a string that must appear nowhere but in the request. */
const SESSION_TOKEN = `tok-${randomBytes(12).toString('hex')}`;

let cluster: Cluster;
let s3Endpoint: string;
const bulkWorkers: SpawnedProcess[] = [];
const jobs: { items?: string; cancelled?: string; s3?: string } = {};

const objectBody = (n: number): Buffer => Buffer.from(`object ${n} `.repeat(1 + (n % 50)));
const objectKey = (n: number): string => `data/${String(n).padStart(6, '0')}.bin`;
const DELETED = 7;

beforeAll(async () => {
  cluster = await startCluster({
    apiNodes: 1,
    workers: 1,
    env: {
      // The cluster's own worker serves the interactive queues only; the bulk workers start later.
      WORKER_BULK: 'false',
      SECRETS_KEY: randomBytes(32).toString('hex'),
      URL_FETCH_ALLOW_LOOPBACK: 'true',
      BULK_CHUNK_ITEMS: String(CHUNK_ITEMS),
      LOG_LEVEL: 'info',
      // A killed worker's chunk is taken over within seconds (the test below kills one mid-chunk).
      WORKER_LOCK_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
    },
  });
  s3Endpoint = cluster.env.S3_ENDPOINT!;
  const s3 = new S3Client({
    endpoint: s3Endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await s3.send(new CreateBucketCommand({ Bucket: SOURCE_BUCKET }));
  for (let start = 0; start < OBJECTS; start += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, OBJECTS - start) }, (_, i) =>
        s3.send(new PutObjectCommand({ Bucket: SOURCE_BUCKET, Key: objectKey(start + i), Body: objectBody(start + i) })),
      ),
    );
  }
  s3.destroy();
}, 180_000);

afterAll(async () => {
  await Promise.all(bulkWorkers.map((w) => w.stop('SIGKILL')));
  await cluster?.close();
  // At full size s3rver holds 10,000 objects and a million items' parts: stopping it and removing them took over a minute.
}, SLOW_MS);

/** Every value under the cluster's Redis prefix, as text. */
async function redisDump(): Promise<string> {
  const redis = new Redis(SHARED_REDIS_URL);
  const dump: string[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${cluster.env.QUEUE_PREFIX}*`, 'COUNT', '500');
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === 'string') dump.push((await redis.get(key)) ?? '');
        else if (type === 'hash') dump.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'list') dump.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === 'set') dump.push(JSON.stringify(await redis.smembers(key)));
        else if (type === 'zset') dump.push(JSON.stringify(await redis.zrange(key, '0', '-1')));
        else if (type === 'stream') dump.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return dump.join('\n');
}

const auth = (): Record<string, string> => ({ 'x-api-key': cluster.keys.production });
const status = async (id: string): Promise<any> => (await fetch(`${cluster.url(0)}/v2/bulk/${id}`, { headers: auth() })).json();

async function createUrlsJob(urls: readonly string[]): Promise<string> {
  const created = await fetch(`${cluster.url(0)}/v2/bulk`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({ source: 'urls', urls }),
  });
  expect(created.status).toBe(202);
  return ((await created.json()) as { id: string }).id;
}

/** The chunks of job `id` a worker took, with BullMQ's start count of each (workers/bulk/pool.ts "bulk chunk taken"). */
function takesOf(worker: SpawnedProcess, id: string): Array<{ chunk: number; attempt: number }> {
  return worker
    .output()
    .split('\n')
    .filter((line) => line.includes('bulk chunk taken') && line.includes(id))
    .map((line) => JSON.parse(line) as { chunk: number; attempt: number });
}

describe('bulk jobs on two workers (Redis, s3rver)', () => {
  it(
    'accepts NDJSON items, an S3 bucket, and a cancel while no worker serves the bulk queue',
    async () => {
      const items = await postNdjson(cluster.url(0), cluster.keys.production, ndjsonBody(ITEMS));
      expect(items.status).toBe(202);
      jobs.items = items.body.id;
      const doomed = await postNdjson(cluster.url(0), cluster.keys.production, ndjsonBody(3000));
      jobs.cancelled = doomed.body.id;
      const cancel = await fetch(`${cluster.url(0)}/v2/bulk/${doomed.body.id}`, { method: 'DELETE', headers: auth() });
      expect(await cancel.json()).toMatchObject({ status: 'cancelled', chunks: { total: Math.ceil(3000 / CHUNK_ITEMS), done: 0 } });

      const s3 = await fetch(`${cluster.url(0)}/v2/bulk`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({
          source: 's3',
          bucket: SOURCE_BUCKET,
          prefix: 'data/',
          endpoint: s3Endpoint,
          region: 'us-east-1',
          credentials: { access_key_id: 'S3RVER', secret_access_key: 'S3RVER', session_token: SESSION_TOKEN },
        }),
      });
      const s3Body = await s3.json();
      expect(s3.status, JSON.stringify(s3Body)).toBe(202);
      expect(s3Body).toMatchObject({ source: 's3', items: { total: OBJECTS } });
      jobs.s3 = s3Body.id;
      // Deleted after the listing, before any worker reads it: an item error, not a failed job.
      const client = new S3Client({
        endpoint: s3Endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      await client.send(new DeleteObjectCommand({ Bucket: SOURCE_BUCKET, Key: objectKey(DELETED) }));
      client.destroy();
      expect(await status(jobs.items!)).toMatchObject({ status: 'running', items: { done: 0 } });
      // The S3 job's chunks wait in Redis with the credentials sealed, never in the clear.
      const queued = await redisDump();
      expect(queued).toMatch(/sealed\W{1,6}v1\./);
      for (const secret of [SESSION_TOKEN, 'S3RVER']) expect(queued).not.toContain(secret);
    },
    SLOW_MS,
  );

  it(
    'runs every chunk once two bulk workers start, both taking part; results in input order equal node:crypto',
    async () => {
      const started = performance.now();
      for (let i = 0; i < 2; i++) bulkWorkers.push(spawnEntry('worker', { ...cluster.env, WORKER_BULK: 'true', LOG_LEVEL: 'info' }));
      await Promise.all(bulkWorkers.map((w) => w.waitFor(/worker ready/)));
      const done = await waitFor(
        async () => {
          const [a, b] = await Promise.all([status(jobs.items!), status(jobs.s3!)]);
          return a.status === 'completed' && b.status === 'completed' ? [a, b] : undefined;
        },
        { timeoutMs: SLOW_MS - 20_000, intervalMs: 200, what: 'the items and S3 jobs to complete' },
      );
      const elapsed = performance.now() - started;
      const failed = Math.floor((ITEMS + 1) / 1000);
      expect(done[0]).toMatchObject({ items: { total: ITEMS, done: ITEMS - failed, failed } });
      expect(done[1]).toMatchObject({ items: { total: OBJECTS, done: OBJECTS - 1, failed: 1 } });
      console.log(`bulk distributed: ${ITEMS} items + ${OBJECTS} S3 objects in ${Math.round(elapsed)} ms from the workers' start`);

      const res = await fetch(`${cluster.url(0)}/v2/bulk/${jobs.items}/results`, { headers: auth() });
      expect((await checkResults(Readable.fromWeb(res.body as never), ITEMS)).failed).toBe(failed);

      const s3Text = await (await fetch(`${cluster.url(0)}/v2/bulk/${jobs.s3}/results`, { headers: auth() })).text();
      // A Range across the parts, from the part sizes the workers recorded in Redis: the same bytes as the whole answer.
      const total = Buffer.byteLength(s3Text);
      const ranged = await fetch(`${cluster.url(0)}/v2/bulk/${jobs.s3}/results`, {
        headers: { ...auth(), range: `bytes=1000-${total - 1000}` },
      });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-range')).toBe(`bytes 1000-${total - 1000}/${total}`);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(Buffer.from(s3Text).subarray(1000, total - 999))).toBe(true);
      const s3Lines = s3Text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; hash?: string; bytes?: number; error?: { code: string } });
      expect(s3Lines).toHaveLength(OBJECTS);
      s3Lines.forEach((line, n) => {
        expect(line.id).toBe(objectKey(n));
        if (n === DELETED) expect(line.error?.code).toBe('NOT_FOUND');
        else
          expect(line).toEqual({
            id: objectKey(n),
            hash: createHash('sha224').update(objectBody(n)).digest('hex'),
            bytes: objectBody(n).length,
          });
      });

      // Both workers ran chunks.
      for (const worker of bulkWorkers) expect(worker.output()).toMatch(/bulk chunk done/);
      // The cancelled job ran nothing, and has no result lines.
      const cancelled = await status(jobs.cancelled!);
      expect(cancelled).toMatchObject({ status: 'cancelled', chunks: { done: 0 } });
      expect(await (await fetch(`${cluster.url(0)}/v2/bulk/${jobs.cancelled}/results`, { headers: auth() })).text()).toBe('');
    },
    SLOW_MS,
  );

  it('never keeps the S3 credentials: not in Redis, not in a log, not in the database', async () => {
    const secrets = [SESSION_TOKEN, 'S3RVER'];
    const dump = await redisDump();
    const client = new pg.Client({ connectionString: cluster.env.DATABASE_URL });
    await client.connect();
    const rows: string[] = [];
    try {
      const tables = await client.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
      );
      for (const { table_name } of tables.rows) rows.push(JSON.stringify((await client.query(`select * from "${table_name}"`)).rows));
    } finally {
      await client.end();
    }
    const logs = [...cluster.apis, ...cluster.workers, ...bulkWorkers].map((p) => p.output()).join('\n');
    for (const secret of secrets) {
      expect(dump).not.toContain(secret);
      expect(rows.join('\n')).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });

  it('two bulk workers SIGKILLed during one job: only the chunks they held run again, the results are unchanged', async () => {
    // Each bulk worker runs one chunk at a time (BULK_CONCURRENCY 1): a worker killed while it waits
    // on a held URL holds exactly that URL's chunk. URLs 250 and 650 sit in chunks 2 and 6 (100 URLs a chunk).
    const hold = await startHoldServer();
    const held = [
      { name: 'a', at: 250, chunk: 2 },
      { name: 'b', at: 650, chunk: 6 },
    ];
    const killed = new Set<SpawnedProcess>();
    try {
      const urls = Array.from({ length: 1000 }, (_, n) => {
        const h = held.find((x) => x.at === n);
        return h === undefined ? hold.url(n) : hold.holdUrl(h.name);
      });
      const id = await createUrlsJob(urls);
      for (const h of held) {
        await hold.arrived(h.name);
        const holder = await waitFor(() => bulkWorkers.find((w) => !killed.has(w) && takesOf(w, id).some((t) => t.chunk === h.chunk)), {
          what: `the worker inside chunk ${h.chunk}`,
          timeoutMs: 30_000,
        });
        await holder.stop('SIGKILL');
        killed.add(holder);
        bulkWorkers.push(spawnEntry('worker', { ...cluster.env, WORKER_BULK: 'true', LOG_LEVEL: 'info' }));
        hold.release(h.name);
      }
      const done = await waitFor(async () => ((await status(id)).status === 'completed' ? status(id) : undefined), {
        timeoutMs: 90_000,
        intervalMs: 200,
        what: 'the URL job to complete after two kills',
      });
      expect(done).toMatchObject({ items: { total: 1000, done: 1000, failed: 0 }, chunks: { total: 10, done: 10 } });
      // BullMQ's start count per chunk, from every worker's log (the killed ones' included): the two
      // held chunks were started twice, every other chunk once.
      const attempts = await waitFor(
        () => {
          const most = new Map<number, number>();
          for (const w of bulkWorkers) for (const t of takesOf(w, id)) most.set(t.chunk, Math.max(most.get(t.chunk) ?? 0, t.attempt));
          return most.size === 10 ? Object.fromEntries([...most].sort(([a], [b]) => a - b)) : undefined;
        },
        { what: "every chunk's start in the workers' logs" },
      );
      expect(attempts).toEqual({ 0: 1, 1: 1, 2: 2, 3: 1, 4: 1, 5: 1, 6: 2, 7: 1, 8: 1, 9: 1 });
      const lines = (await (await fetch(`${cluster.url(0)}/v2/bulk/${id}/results`, { headers: auth() })).text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; hash?: string });
      expect(lines.map((l) => l.id)).toEqual(urls);
      lines.forEach((line, n) => expect(line.hash).toBe(sha224Of(held.some((h) => h.at === n) ? 'held' : fastBody(n))));
    } finally {
      hold.close();
      bulkWorkers.splice(0, bulkWorkers.length, ...bulkWorkers.filter((w) => !killed.has(w)));
    }
  });

  it('DELETE stops a running job within seconds: fetches in flight are aborted, queued chunks skipped, nothing counted', async () => {
    // Both bulk workers wait inside a chunk (held URLs in chunks 0 and 1, never released); 8 more chunks are queued.
    const hold = await startHoldServer();
    const redis = new Redis(SHARED_REDIS_URL);
    const queue = new Queue(BULK_QUEUE_NAME, { connection: redis, prefix: bullPrefixOf(cluster.env.QUEUE_PREFIX) });
    try {
      const urls = Array.from({ length: 1000 }, (_, n) => (n === 50 ? hold.holdUrl('c0') : n === 150 ? hold.holdUrl('c1') : hold.url(n)));
      const id = await createUrlsJob(urls);
      await Promise.all([hold.arrived('c0'), hold.arrived('c1')]);
      const cancel = await fetch(`${cluster.url(0)}/v2/bulk/${id}`, { method: 'DELETE', headers: auth() });
      expect(await cancel.json()).toMatchObject({ status: 'cancelled', chunks: { total: 10, done: 0 } });
      const cancelledAt = performance.now();
      await waitFor(
        async () => {
          const counts = await queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
          return Object.values(counts).every((n) => n === 0);
        },
        { timeoutMs: 5000, intervalMs: 100, what: "the cancelled job's chunks to leave the bulk queue" },
      );
      console.log(`bulk cancel: the bulk queue empty ${Math.round(performance.now() - cancelledAt)} ms after DELETE answered`);
      expect(await status(id)).toMatchObject({ status: 'cancelled', items: { done: 0, failed: 0 }, chunks: { done: 0 } });
      expect(await (await fetch(`${cluster.url(0)}/v2/bulk/${id}/results`, { headers: auth() })).text()).toBe('');
    } finally {
      await queue.close();
      redis.disconnect();
      hold.close();
    }
  });
});
