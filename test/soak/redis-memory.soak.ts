/**
 * A soak at a constant rate: synchronous /v2/hash requests that all go through the queue
 * (INLINE_MAX_BYTES=0) plus a trickle of async batch jobs, for SOAK_SECONDS (300 by default; `npm
 * run soak`, or `SOAK_SECONDS=120 npm run soak` for a shorter one). Not in `npm test`: it is a
 * long-running command of its own (docs/decisions.md "Tests and CI"). Redis must not grow: after a
 * warm-up, `used_memory` stays within ±10% of the warm-up's last sample and the key count stays
 * within a small slack of it. What may vary is bounded by design (docs/decisions.md "Jobs and
 * modes"): a synchronous job leaves nothing once answered, an async job and its owner key last
 * JOB_RETENTION_SECONDS, BullMQ's event streams are capped, the rate counters expire with their window.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { sha224Hex } from '../helpers/digests.js';
import { stallFor } from '../helpers/wait.js';
import { startPrivateRedis, stopRedisServer, type PrivateRedis } from '../queue/redis-helpers.js';

const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const WARMUP_SECONDS = 60;
const SAMPLE_EVERY_MS = 10_000;
const SYNC_PER_SECOND = 40;
const ASYNC_PER_SECOND = 1;
const RETENTION_SECONDS = 20;
/** ±10% of the warm-up baseline. */
const MEMORY_TOLERANCE = 0.1;
/**
 * Keys that come and go at a steady rate: the synchronous jobs in flight (40/s for tens of ms
 * each) and the async jobs kept for their retention (1/s × 20 s, each a job hash and an owner
 * key), read at an arbitrary instant.
 */
const KEY_SLACK = 30;

interface Sample {
  atSeconds: number;
  usedMemory: number;
  keys: number;
}

describe('soak', () => {
  let cluster: Cluster | undefined;
  let redis: PrivateRedis | undefined;
  afterAll(async () => {
    await cluster?.close();
    if (redis) await stopRedisServer(redis.child);
  });

  it(
    `${SOAK_SECONDS} s at ${SYNC_PER_SECOND} queued requests/s: Redis memory and key count stay flat after a ${WARMUP_SECONDS} s warm-up`,
    async () => {
      expect(SOAK_SECONDS).toBeGreaterThan(WARMUP_SECONDS);
      redis = await startPrivateRedis();
      cluster = await startCluster({
        apiNodes: 1,
        workers: 1,
        redisUrl: redis.url,
        env: { INLINE_MAX_BYTES: '0', JOB_RETENTION_SECONDS: String(RETENTION_SECONDS) },
        workerArgs: ['--queues', 'hash,batch'],
      });
      const c = cluster;
      const failures: string[] = [];
      let syncDone = 0;
      let asyncDone = 0;

      const syncHash = async (): Promise<void> => {
        const data = randomBytes(48).toString('base64');
        try {
          const res = await fetch(`${c.url(0)}/v2/hash`, {
            method: 'POST',
            headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
            body: JSON.stringify({ data }),
            signal: AbortSignal.timeout(30_000),
          });
          const body = (await res.json()) as { hash?: string };
          if (res.status !== 200 || body.hash !== sha224Hex(data)) failures.push(`hash: ${res.status} ${JSON.stringify(body)}`);
          else syncDone++;
        } catch (err) {
          failures.push(`hash: ${String(err)}`);
        }
      };
      /** Submits a batch and polls it to completion, well inside its retention. */
      const asyncBatch = async (): Promise<void> => {
        const data = randomBytes(48).toString('base64');
        try {
          const res = await fetch(`${c.url(0)}/v2/batch?async=true`, {
            method: 'POST',
            headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
            body: JSON.stringify({ items: [{ id: 'x', data }] }),
          });
          const { job_id: id } = (await res.json()) as { job_id?: string };
          if (res.status !== 202 || id === undefined) throw new Error(`submit answered ${res.status}`);
          for (let poll = 0; poll < 50; poll++) {
            await stallFor(200); // the poll's pace
            const view = await fetch(`${c.url(0)}/v2/jobs/${id}`, { headers: { 'x-api-key': c.keys.production } });
            const job = (await view.json()) as { status?: string; results?: unknown };
            if (job.status !== 'completed') continue;
            if (JSON.stringify(job.results) !== JSON.stringify([{ id: 'x', hash: sha224Hex(data) }])) throw new Error(JSON.stringify(job));
            asyncDone++;
            return;
          }
          throw new Error(`job ${id} not completed within 10 s`);
        } catch (err) {
          failures.push(`batch: ${String(err)}`);
        }
      };

      const probe = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      const samples: Sample[] = [];
      const inFlight = new Set<Promise<void>>();
      const track = (p: Promise<void>): void => {
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      };
      try {
        const started = Date.now();
        const end = started + SOAK_SECONDS * 1000;
        let nextSample = started + SAMPLE_EVERY_MS;
        // Open loop: request n is due at started + n / rate, whether or not earlier ones were answered.
        for (let n = 0; Date.now() < end; n++) {
          const due = started + (n * 1000) / SYNC_PER_SECOND;
          await stallFor(Math.max(0, due - Date.now())); // the constant rate is the input
          track(syncHash());
          if (n % (SYNC_PER_SECOND / ASYNC_PER_SECOND) === 0) track(asyncBatch());
          if (Date.now() >= nextSample) {
            nextSample += SAMPLE_EVERY_MS;
            const usedMemory = Number(/^used_memory:(\d+)/m.exec(await probe.info('memory'))?.[1]);
            samples.push({ atSeconds: Math.round((Date.now() - started) / 1000), usedMemory, keys: await probe.dbsize() });
          }
        }
        await Promise.all(inFlight);
      } finally {
        probe.disconnect();
      }

      const baseline = samples.filter((s) => s.atSeconds <= WARMUP_SECONDS).at(-1)!;
      const after = samples.filter((s) => s.atSeconds > WARMUP_SECONDS);
      const memories = after.map((s) => s.usedMemory);
      const keyCounts = after.map((s) => s.keys);
      console.log(
        `soak: ${syncDone} sync + ${asyncDone} async answered, ${failures.length} failed; baseline at ${baseline.atSeconds} s ` +
          `used_memory ${baseline.usedMemory} keys ${baseline.keys}; after: used_memory ${Math.min(...memories)}..${Math.max(...memories)} ` +
          `(${(((Math.max(...memories) - baseline.usedMemory) / baseline.usedMemory) * 100).toFixed(1)}% max), keys ${Math.min(...keyCounts)}..${Math.max(...keyCounts)}\n` +
          samples.map((s) => `${s.atSeconds}s ${s.usedMemory} ${s.keys}`).join('\n'),
      );
      expect(failures.slice(0, 5)).toEqual([]);
      expect(after.length).toBeGreaterThanOrEqual(Math.floor((SOAK_SECONDS - WARMUP_SECONDS) / (SAMPLE_EVERY_MS / 1000)) - 1);
      for (const s of after) {
        expect(Math.abs(s.usedMemory - baseline.usedMemory), `used_memory at ${s.atSeconds} s`).toBeLessThanOrEqual(
          baseline.usedMemory * MEMORY_TOLERANCE,
        );
        expect(Math.abs(s.keys - baseline.keys), `key count at ${s.atSeconds} s`).toBeLessThanOrEqual(KEY_SLACK);
      }
    },
    (SOAK_SECONDS + 120) * 1000,
  );
});
