/**
 * Redis with an append-only file fsynced on every write (`appendfsync always`) crashes (SIGKILL)
 * under steady async load and comes back from that file on the same port: every job the API
 * acknowledged with 202 still completes with the right digest. Requests made while Redis is down
 * may be refused with 503 SERVICE_UNAVAILABLE (docs/api.md "v2 errors"); they are counted apart, since
 * nothing was promised for them.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { sha224Hex } from '../helpers/digests.js';
import { stallFor, waitFor } from '../helpers/wait.js';
import { startPrivateRedis, startRedisServer, stopRedisServer } from '../queue/redis-helpers.js';

/** A crashed worker's job is taken over within seconds, not the default 30 s. */
const FAST_RECOVERY = { WORKER_LOCK_MS: '2000', WORKER_STALLED_INTERVAL_MS: '1000' };
const SUBMITTERS = 4;
/** Accepted jobs wanted before the crash, and again after Redis is back. */
const ACCEPTED_PER_PHASE = 80;

interface Submitted {
  id: string;
  data: string;
}

describe('Redis crash with appendfsync always', () => {
  let cluster: Cluster | undefined;
  let redisChild: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
    if (redisChild) await stopRedisServer(redisChild);
    redisChild = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('a SIGKILLed Redis restarted from its AOF loses none of the jobs answered 202', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-aof-'));
    // startPrivateRedis passes `--appendonly no` first; a later argument wins (checked below).
    const redisArgs = ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir];
    const redis = await startPrivateRedis(redisArgs);
    redisChild = redis.child;
    const probe = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      expect(await probe.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await probe.config('GET', 'appendfsync')).toEqual(['appendfsync', 'always']);
      expect(await probe.config('GET', 'dir')).toEqual(['dir', fs.realpathSync(dir)]);
    } finally {
      probe.disconnect();
    }

    cluster = await startCluster({ apiNodes: 1, workers: 1, redisUrl: redis.url, env: FAST_RECOVERY });
    const c = cluster;
    const accepted: Submitted[] = [];
    const unavailable: number[] = [];
    const unexpected: string[] = [];
    let stop = false;
    const submitter = async (n: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const data = `submitter ${n} job ${i} ${randomBytes(6).toString('hex')}`;
        try {
          const res = await fetch(`${c.url(0)}/v2/batch?async=true`, {
            method: 'POST',
            headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
            body: JSON.stringify({ items: [{ id: 'x', data }] }),
            signal: AbortSignal.timeout(15_000),
          });
          const body = (await res.json()) as { job_id?: string; error?: { code: string } };
          if (res.status === 202 && body.job_id) accepted.push({ id: body.job_id, data });
          else if (res.status === 503 && body.error?.code === 'SERVICE_UNAVAILABLE') unavailable.push(Date.now());
          else unexpected.push(`${res.status} ${JSON.stringify(body)}`);
        } catch (err) {
          unexpected.push(String(err));
        }
        await stallFor(20); // the input: a steady stream of submissions, not a burst
      }
    };
    const load = Promise.all(Array.from({ length: SUBMITTERS }, (_, n) => submitter(n)));

    await waitFor(() => accepted.length >= ACCEPTED_PER_PHASE, { timeoutMs: 20_000, what: 'jobs accepted before the crash' });
    // A crash: with appendfsync always, every write Redis acknowledged is in the file already.
    await stopRedisServer(redis.child);
    const acceptedBeforeRestart = accepted.length;
    await stallFor(500); // the outage lasts a while under load
    redisChild = await startRedisServer(redis.port, redisArgs);
    await waitFor(() => accepted.length >= acceptedBeforeRestart + ACCEPTED_PER_PHASE, {
      timeoutMs: 20_000,
      what: 'jobs accepted after the restart',
    });
    stop = true;
    await load;

    const finished = new Map<string, { status: string; results?: Array<{ id: string; hash: string }> }>();
    const pending = (): Submitted[] => accepted.filter((job) => finished.get(job.id)?.status !== 'completed');
    await waitFor(
      async () => {
        await Promise.all(
          pending()
            .slice(0, 50)
            .map(async (job) => {
              const res = await fetch(`${c.url(0)}/v2/jobs/${job.id}`, { headers: { 'x-api-key': c.keys.production } });
              if (res.status === 200) finished.set(job.id, (await res.json()) as { status: string });
            }),
        );
        return pending().length === 0;
      },
      { timeoutMs: 20_000, intervalMs: 100, what: 'every accepted job to complete' },
    ).catch(() => undefined);

    const lost = pending();
    console.log(
      `AOF restart: ${accepted.length} accepted (${acceptedBeforeRestart} before the crash), ${lost.length} lost, ` +
        `${unavailable.length} answered 503 while Redis was away, ${unexpected.length} unexpected`,
    );
    expect(unexpected).toEqual([]);
    expect(lost.map((job) => `${job.id}: ${finished.get(job.id)?.status ?? 'unknown'}`)).toEqual([]);
    for (const job of accepted) expect(finished.get(job.id)?.results).toEqual([{ id: 'x', hash: sha224Hex(job.data) }]);
  }, 60_000);
});
