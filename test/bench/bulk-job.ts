/**
 * The bulk bench's cluster side (test/bench/bulk.ts): the items it sends, and a `BulkBench` that
 * submits, follows, cancels and checks bulk jobs (docs/api.md "Bulk jobs") on one API node and
 * starts and stops the bulk workers, each at the nice value asked for (WORKER_BULK_NICE).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { BULK_QUEUE_NAME } from '../../shared/naming.js';
import { bullPrefixOf } from '../../shared/queue/bullmq-wire.js';
import type { Cluster } from '../helpers/cluster.js';
import { spawnNode, type SpawnedProcess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { cpuMicros, ROOT } from './procs.js';

export const DATA_BYTES = 64;

/** Item n: 64 bytes of utf8 text, distinct per item. */
export const itemData = (n: number): string => `item ${String(n).padStart(10, '0')} `.padEnd(DATA_BYTES, 'x');

export function writeItems(file: string, count: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (let start = 0; start < count; start += 10_000) {
      let piece = '';
      for (let n = start; n < Math.min(count, start + 10_000); n++) piece += `{"id":"i${n}","data":"${itemData(n)}"}\n`;
      fs.writeSync(fd, piece);
    }
  } finally {
    fs.closeSync(fd);
  }
}

export interface JobRun {
  id: string;
  wallSeconds: number;
  cpuSecondsByWorker: number[];
}

export interface BulkStatus {
  status: string;
  items: { total: number; done: number; failed: number };
  finished_at?: string;
}

/**
 * A bulk worker's CPU priority: its WORKER_BULK_NICE, a nice value (0-19) or `idle` (SCHED_IDLE,
 * which the worker sets on itself at start: workers/bulk/priority.ts).
 */
export type WorkerPriority = number | 'idle';

export interface ItemsFile {
  file: string;
  items: number;
}

export class BulkBench {
  readonly workers: SpawnedProcess[] = [];
  private readonly redis: Redis;
  private readonly queue: Queue;

  constructor(
    readonly cluster: Cluster,
    readonly key: string,
    /** A two-chunk job each worker start is followed by (module loading, the blob store's first connection). */
    readonly warm: ItemsFile,
  ) {
    this.redis = new Redis(cluster.env.REDIS_URL ?? '', { maxRetriesPerRequest: null });
    this.queue = new Queue(BULK_QUEUE_NAME, { connection: this.redis, prefix: bullPrefixOf(cluster.env.QUEUE_PREFIX) });
  }

  get url(): string {
    return this.cluster.url(0);
  }

  async submit(file: string): Promise<string> {
    const res = await fetch(`${this.url}/v2/bulk`, {
      method: 'POST',
      headers: { 'x-api-key': this.key, 'content-type': 'application/x-ndjson' },
      body: fs.createReadStream(file) as unknown as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const body = (await res.json()) as { id?: string };
    if (res.status !== 202 || body.id === undefined) throw new Error(`POST /v2/bulk answered ${res.status} ${JSON.stringify(body)}`);
    return body.id;
  }

  async status(id: string): Promise<BulkStatus> {
    const res = await fetch(`${this.url}/v2/bulk/${id}`, { headers: { 'x-api-key': this.key } });
    return (await res.json()) as BulkStatus;
  }

  async cancel(id: string): Promise<BulkStatus> {
    const res = await fetch(`${this.url}/v2/bulk/${id}`, { method: 'DELETE', headers: { 'x-api-key': this.key } });
    if (res.status !== 200) throw new Error(`DELETE /v2/bulk/${id} answered ${res.status}`);
    return (await res.json()) as BulkStatus;
  }

  /** Resolves once no chunk of any job waits on or runs in the bulk queue (a cancelled job's are skipped one by one). */
  async queueEmpty(): Promise<void> {
    await waitFor(
      async () => {
        const counts = await this.queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
        return Object.values(counts).every((n) => n === 0);
      },
      { timeoutMs: 60_000, intervalMs: 100, what: 'the bulk queue to empty' },
    );
  }

  /** Starts `count` workers at `priority` and runs the warm-up job on them. */
  async startWorkers(count: number, priority: WorkerPriority): Promise<void> {
    // BENCH_WORKER_NODE_FLAGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, for a profile of the bulk workers.
    const flags = (process.env.BENCH_WORKER_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
    const entry = path.join(ROOT, 'dist', 'worker.js');
    while (this.workers.length < count)
      this.workers.push(
        spawnNode('worker', [...flags, '--enable-source-maps', entry], {
          ...this.cluster.env,
          WORKER_BULK: 'true',
          WORKER_BULK_NICE: String(priority),
        }),
      );
    await Promise.all(this.workers.map((w) => w.waitFor(/worker ready/)));
    await this.completed(await this.submit(this.warm.file), this.warm.items);
  }

  async stopWorkers(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.stop('SIGTERM')));
  }

  async completed(id: string, items: number): Promise<void> {
    const last = await waitFor(
      async () => {
        const status = await this.status(id);
        if (status.status === 'failed' || status.status === 'cancelled') throw new Error(`bulk job ${id} ${status.status}`);
        return status.status === 'completed' ? status : undefined;
      },
      { timeoutMs: 600_000, intervalMs: 50, what: `bulk job ${id} to complete` },
    );
    if (last.items.done !== items || last.items.failed !== 0) throw new Error(`bulk job ${id}: ${JSON.stringify(last.items)}`);
  }

  /**
   * Starts `count` workers (warmed), then times a job of all the items from its 202 (the API node
   * queues the chunks once the whole body is stored) to its completion; worker CPU is read from
   * /proc/<pid>/stat from before its POST to its completion.
   */
  async run(count: number, priority: WorkerPriority, job: ItemsFile): Promise<JobRun> {
    await this.startWorkers(count, priority);
    const before = this.workers.map((w) => cpuMicros(w.pid));
    const id = await this.submit(job.file);
    const started = performance.now();
    await this.completed(id, job.items);
    const wallSeconds = (performance.now() - started) / 1000;
    const cpuSecondsByWorker = this.workers.map((w, i) => (cpuMicros(w.pid) - before[i]!) / 1e6);
    await this.stopWorkers();
    return { id, wallSeconds, cpuSecondsByWorker };
  }

  /** The first and last result lines equal node:crypto's digest (the whole file is checked by test/bulk). */
  async check(id: string, items: number): Promise<void> {
    const text = await (await fetch(`${this.url}/v2/bulk/${id}/results`, { headers: { 'x-api-key': this.key } })).text();
    const lines = text.split('\n').filter(Boolean);
    if (lines.length !== items) throw new Error(`${lines.length} result lines, expected ${items}`);
    for (const n of [0, items - 1]) {
      const line = JSON.parse(lines[n]!) as { id: string; hash: string };
      const expected = createHash('sha224').update(itemData(n)).digest('hex');
      if (line.id !== `i${n}` || line.hash !== expected) throw new Error(`line ${n}: ${lines[n]}, expected ${expected}`);
    }
  }

  async close(): Promise<void> {
    await this.stopWorkers();
    await this.queue.close();
    this.redis.disconnect();
  }
}
