/**
 * Several workers on one host with the defaults (the ordinary way to use a machine's cores): each
 * real dist/worker.js on the machine's Redis takes the first free metrics port from 9091 and
 * announces it, and each answers /metrics there. A METRICS_PORT set explicitly is that port or a
 * start error naming the setting.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';

const prefix = freshPrefix();
const workers: SpawnedProcess[] = [];
let dataDir: string;

/** A worker with every metrics setting left at its default. */
function startWorker(extra: Record<string, string> = {}): SpawnedProcess {
  const worker = spawnEntry('worker', { REDIS_URL: SHARED_REDIS_URL, QUEUE_PREFIX: prefix, DATA_DIR: dataDir, ...extra }, [
    '--queues',
    'hash',
    '--concurrency',
    '1',
  ]);
  workers.push(worker);
  return worker;
}

const ANNOUNCED = /sha224d worker metrics listening on http:\/\/127\.0\.0\.1:(\d+) \(METRICS_PORT unset: first free port from 9091\)/;

async function announcedPort(worker: SpawnedProcess): Promise<number> {
  return Number((await worker.waitFor(ANNOUNCED))[1]);
}

async function metricsAt(port: number): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  // The defaults under test: nothing inherited from the environment running the tests.
  expect(process.env.METRICS_PORT).toBeUndefined();
  dataDir = await mkdtemp(path.join(tmpdir(), 'sha224d-metrics-port-'));
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await dropPrefix(SHARED_REDIS_URL, prefix);
  await rm(dataDir, { recursive: true, force: true });
});

describe('two workers on one host with the default metrics settings', () => {
  let first: SpawnedProcess;
  let second: SpawnedProcess;
  let firstPort: number;
  let secondPort: number;

  it('both start, each on a port of its own from 9091 on, announced at start', async () => {
    first = startWorker();
    firstPort = await announcedPort(first);
    second = startWorker();
    secondPort = await announcedPort(second);
    await second.waitFor(/sha224d worker ready: queues hash concurrency 1/);
    expect(secondPort).not.toBe(firstPort);
    for (const port of [firstPort, secondPort]) {
      expect(port).toBeGreaterThanOrEqual(9091);
      expect(port).toBeLessThanOrEqual(9190);
    }
    expect(first.child.exitCode).toBeNull();
    expect(second.child.exitCode).toBeNull();
  });

  it('both answer /metrics on the port they announced', async () => {
    for (const port of [firstPort, secondPort]) {
      const { status, body } = await metricsAt(port);
      expect(status).toBe(200);
      expect(body).toMatch(/^# HELP sha224d_/m);
      expect(body).toContain('sha224d_queue_jobs');
    }
    // Each port is its own worker's: with the first stopped, the second still answers.
    expect(await first.stop()).toBe(0);
    expect((await metricsAt(secondPort)).status).toBe(200);
  });

  it('a METRICS_PORT set explicitly to a port in use is a start error naming the setting', async () => {
    const clash = startWorker({ METRICS_PORT: String(secondPort) });
    expect(await clash.exited).toBe(1);
    // The listen error follows as its cause (shared/start-failure.ts).
    expect(clash.output()).toContain(
      `sha224d worker failed to start: METRICS_PORT=${secondPort} is already in use on 127.0.0.1: give each worker on this host its own METRICS_PORT, or leave it unset to take the first free port from 9091: listen EADDRINUSE`,
    );
    expect(clash.output()).not.toContain('sha224d worker ready');
  });
});
