/**
 * The API node's cost of taking an NDJSON bulk body (docs/decisions.md "Bulk jobs"): one API
 * node, no worker, s3rver under SCHED_IDLE; each round POSTs the same generated body and prints
 * the seconds from POST to 202 and the node's CPU-seconds per million items, then cancels the job.
 *
 *   npm run bench:bulk-submit [-- --items 2000000 --rounds 2 --dist dist,.dist-before --cpu-prof DIR]
 *
 * `--dist` lists builds to alternate (each round runs them in turn, reversing the order every
 * round: A B, B A, …); `--cpu-prof` writes each node's V8 CPU profile into DIR.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster } from '../helpers/cluster.js';
import { spawnNode } from '../helpers/spawn.js';
import { writeItems } from './bulk-job.js';
import { cpuMicros, ROOT } from './procs.js';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '2000000' },
    rounds: { type: 'string', default: '2' },
    dist: { type: 'string', default: 'dist' },
    'cpu-prof': { type: 'string' },
  },
});
const items = Number(values.items);
const builds = values.dist.split(',');
const file = path.join(os.tmpdir(), `sha224d-bulk-submit-${items}.ndjson`);
if (!fs.existsSync(file)) writeItems(file, items);

const cluster = await startCluster({ apiNodes: 0, workers: 0, s3Nice: 'idle', env: { WORKER_BULK: 'false', LOG_LEVEL: 'warn' } });
const key = cluster.keys.production;

async function round(build: string): Promise<void> {
  const profile = values['cpu-prof'];
  const flags = profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`];
  const api = spawnNode('api', [...flags, path.join(ROOT, build, 'api.js')], cluster.env);
  try {
    const url = (await api.waitFor(/api listening on (http:\/\/\S+)/))[1]!;
    // A small job first: module loading and the blob store's first connection are not the body's cost.
    await submit(url, Buffer.from('{"id":"warm","data":"x"}\n'));
    const cpuBefore = cpuMicros(api.pid);
    const started = performance.now();
    await submit(url, fs.createReadStream(file));
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds = (cpuMicros(api.pid) - cpuBefore) / 1e6;
    console.log(
      `${build}: ${items} items, POST to 202 ${seconds.toFixed(2)} s, API CPU ${cpuSeconds.toFixed(2)} s ` +
        `(${((cpuSeconds * 1e6) / items).toFixed(2)} CPU-s per million items), load average ${os
          .loadavg()
          .map((n) => n.toFixed(2))
          .join(' ')}`,
    );
  } finally {
    await api.stop('SIGTERM');
  }
}

async function submit(url: string, body: Buffer | fs.ReadStream): Promise<string> {
  const res = await fetch(`${url}/v2/bulk`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson' },
    body: body as unknown as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const answer = (await res.json()) as { id?: string };
  if (res.status !== 202 || answer.id === undefined) throw new Error(`POST /v2/bulk answered ${res.status} ${JSON.stringify(answer)}`);
  // Let the warm-up's tiny job (and each measured one) end before the next: the plan's slots are few.
  await fetch(`${url}/v2/bulk/${answer.id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
  return answer.id;
}

try {
  for (let r = 0; r < Number(values.rounds); r++) for (const build of r % 2 === 0 ? builds : [...builds].reverse()) await round(build);
} finally {
  await cluster.close();
}
