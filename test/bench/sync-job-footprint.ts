/**
 * What synchronous jobs leave in Redis (distributed mode): runs N synchronous hash jobs through a
 * BullMQ producer and workers on a fresh namespace of the machine's Redis, then counts the
 * namespace's keys and sums `MEMORY USAGE … SAMPLES 0` over them, against a baseline taken after
 * one warm-up job (so the queues' own keys are not counted).
 *
 *   npx tsx test/bench/sync-job-footprint.ts [jobs=1000] [payloadBytes=28672]
 *
 * The default payload is ~28 KiB, a typical queued input. BullMQ's event stream is reported apart:
 * it is capped (10,000 entries per queue), so it stops growing whatever the number of jobs.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { QUEUE_NAMES } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import { BullMqJobQueue } from '../../shared/queue/bullmq-queue.js';
import { startBullMqWorkers } from '../../workers/bullmq/pool.js';
import { createJobHandlers } from '../../workers/registry.js';
import { deleteKeys, freshPrefix } from '../queue/redis-helpers.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const JOBS = Number(process.argv[2] ?? 1000);
const PAYLOAD_BYTES = Number(process.argv[3] ?? 28 * 1024);
const IN_FLIGHT = 16;

interface Footprint {
  keys: number;
  bytes: number;
  streamBytes: number;
}

async function footprint(redis: Redis, prefix: string): Promise<Footprint> {
  const found: Footprint = { keys: 0, bytes: 0, streamBytes: 0 };
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const bytes = (await redis.memory('USAGE', key, 'SAMPLES', 0)) ?? 0;
      if (key.endsWith(':events')) found.streamBytes += bytes;
      else {
        found.keys++;
        found.bytes += bytes;
      }
    }
  } while (cursor !== '0');
  return found;
}

async function main(): Promise<void> {
  const prefix = freshPrefix();
  const logger = createLogger('silent');
  const redis = new Redis(REDIS_URL);
  const blobs = new LocalDiskBlobStore(`/tmp/${prefix}`);
  const queue = new BullMqJobQueue({ connection: REDIS_URL, retentionMs: 24 * 3600 * 1000, logger, prefix });
  const workers = await startBullMqWorkers({
    connection: REDIS_URL,
    handlers: createJobHandlers({ allowLoopbackUrls: false }),
    blobs,
    queues: QUEUE_NAMES,
    concurrency: IN_FLIGHT,
    logger,
    blobRetentionMs: 0,
    prefix,
  });
  const job = () => ({ data: randomBytes(PAYLOAD_BYTES / 2).toString('hex'), encoding: 'hex' as const });
  try {
    await queue.run('hash', job(), { accountId: 'bench', timeoutMs: 10_000 });
    const before = await footprint(redis, prefix);
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next++ < JOBS) await queue.run('hash', job(), { accountId: 'bench', timeoutMs: 30_000 });
      }),
    );
    const after = await footprint(redis, prefix);
    const per = (n: number) => (n / JOBS).toFixed(1);
    process.stdout.write(
      `${JOBS} sync jobs of ${PAYLOAD_BYTES} B input: ` +
        `+${after.keys - before.keys} keys (${per(after.keys - before.keys)} per job), ` +
        `+${after.bytes - before.bytes} B outside the event stream (${per(after.bytes - before.bytes)} B per job), ` +
        `event stream +${after.streamBytes - before.streamBytes} B (capped)\n`,
    );
  } finally {
    await workers.close();
    await queue.close();
    await deleteKeys(redis, prefix);
    redis.disconnect();
  }
}

await main();
