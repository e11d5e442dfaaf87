/**
 * The scenarios of `npm run bench`, each a set of subjects measured in interleaved rounds
 * (measure.ts): sha224d's variants and the references they are compared with. Every subject's
 * answer is checked against node:crypto once before it is measured, so a figure never describes
 * error replies.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { NODE_FLAGS, type Fleet } from './fleet.js';
import type { LoadRun, Subject } from './measure.js';
import type { BenchOptions, ScenarioName } from './options.js';
import { cpuMicros, freePort, peakRssBytes, ROOT, runPinned, ServerProcess } from './procs.js';
import { runWrk } from './wrk.js';
import { WS_IN_FLIGHT, type WsLoadResult } from './ws.js';

export interface Scenario {
  id: string;
  group: ScenarioName;
  title: string;
  /** What ops per second are: req/s, msg/s, MB/s; cold start reports ms to the first 200 instead. */
  unit: 'req/s' | 'msg/s' | 'MB/s' | 'ms';
  /** One op: what CPU time is divided by. */
  op: 'req' | 'msg' | 'MB' | 'start';
  subjects: Subject[];
}

const DATA = 'The quick brown fox jumps over the lazy dog, 64 bytes of input.!'; // 64 bytes
const HASH_BODY = JSON.stringify({ data: DATA });
const BATCH_ITEMS = 1000;
const BATCH_BODY = JSON.stringify({
  items: Array.from({ length: BATCH_ITEMS }, (_, i) => ({ id: String(i), data: `${String(i).padStart(4, '0')}${DATA.slice(4)}` })),
});
const BATCH_CONNECTIONS = 8;

const sha224 = (data: string | Buffer): string => createHash('sha224').update(data).digest('hex');

async function postJson(url: string, body: string, apiKey: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function checkHash(name: string, origin: string, apiKey: string): Promise<void> {
  const { status, json } = await postJson(`${origin}/v2/hash`, HASH_BODY, apiKey);
  if (status !== 200 || json.hash !== sha224(DATA)) throw new Error(`${name}: /v2/hash answered ${status} ${JSON.stringify(json)}`);
}

const wrkRun = (fleet: Fleet, url: string, body: string, connections: number, durationSec: number) => async (): Promise<LoadRun> => {
  const r = await runWrk({
    url,
    body,
    headers: { 'Content-Type': 'application/json', 'X-API-Key': fleet.apiKey },
    connections,
    durationSec,
    workDir: fleet.workDir,
  });
  return {
    ops: r.requests,
    seconds: r.durationSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    p999Ms: r.p999Ms,
    maxMs: r.maxMs,
    generatorBusyShare: r.generatorBusyShare,
    generatorWaitShare: r.generatorWaitShare,
    errors: r.errors,
  };
};

const INLINE = 'sha224d distributed, inline (+Redis)';

/** POST /v2/hash, 64 B, against both references and every way sha224d serves it. */
export async function hashScenario(fleet: Fleet, options: BenchOptions): Promise<Scenario> {
  const [bare, express, embedded, hotPathOff, inline, queue, redis] = await Promise.all([
    fleet.bare(),
    fleet.express(),
    fleet.embedded(),
    fleet.embeddedHotPathOff(),
    fleet.apiInline(),
    fleet.apiQueue(),
    fleet.redisServer(),
  ]);
  type Named = { name: string; pid: number };
  const subject = (name: string, reference: boolean, main: ServerProcess, others: Named[], logs: ServerProcess[]): Subject => ({
    name,
    reference,
    ...(others.some((o) => o.name === 'redis') ? { redisUrl: redis.url } : {}),
    cpuProcesses: () => [{ name: others.length > 0 ? 'api' : 'server', pid: main.pid }, ...others],
    rssPid: () => main.pid,
    gcTrace: () => main,
    ...(logs.length > 0 ? { logs: () => logs } : {}),
    run: wrkRun(fleet, `${main.url}/v2/hash`, HASH_BODY, options.connections, options.durationSec),
    warmUp: async () => {
      await checkHash(name, main.url, fleet.apiKey);
      await wrkRun(fleet, `${main.url}/v2/hash`, HASH_BODY, options.connections, options.durationSec)();
    },
  });
  return {
    id: 'hash',
    group: 'hash',
    title: `POST /v2/hash, 64 B, ${options.connections} connections (wrk)`,
    unit: 'req/s',
    op: 'req',
    subjects: [
      subject('bare node:http', true, bare, [], []),
      subject('bare Express 5', true, express, [], []),
      subject('sha224d embedded', false, embedded, [], [embedded]),
      subject('sha224d embedded HOT_PATH=off', false, hotPathOff, [], [hotPathOff]),
      subject(INLINE, false, inline, [{ name: 'redis', pid: redis.pid }], [inline]),
      {
        ...subject(
          'sha224d queue path, 1 worker (+worker, Redis)',
          false,
          queue.api,
          [
            { name: 'worker', pid: queue.worker.pid },
            { name: 'redis', pid: redis.pid },
          ],
          [queue.api, queue.worker],
        ),
        // Its own yardstick: what the queue costs over hashing on the API node (README "Performance").
        versus: INLINE,
      },
    ],
  };
}

/** POST /v2/batch of 1000 × 64 B against the same work done in one process with nothing around it. */
export async function batchScenario(fleet: Fleet, options: BenchOptions): Promise<Scenario> {
  const embedded = await fleet.embedded();
  const bodyFile = path.join(fleet.workDir, 'batch-body.json');
  fs.writeFileSync(bodyFile, BATCH_BODY);
  const inProcess = async (ms: number): Promise<LoadRun> => {
    const out = await runPinned('server', process.execPath, [
      path.join(ROOT, 'test', 'bench', 'batch-reference.mjs'),
      bodyFile,
      String(ms),
    ]);
    const r = JSON.parse(out) as { batches: number; cpu_us: number; wall_us: number };
    return { ops: r.batches, seconds: r.wall_us / 1e6, cpuMicros: r.cpu_us };
  };
  const url = `${embedded.url}/v2/batch`;
  return {
    id: 'batch',
    group: 'batch',
    title: `POST /v2/batch, ${BATCH_ITEMS} × 64 B, ${BATCH_CONNECTIONS} connections (wrk)`,
    unit: 'req/s',
    op: 'req',
    subjects: [
      {
        name: 'in-process parse + hash + serialise',
        reference: true,
        cpuProcesses: () => [],
        run: () => inProcess(options.durationSec * 1000),
        warmUp: () => inProcess(500),
      },
      {
        name: 'sha224d embedded',
        reference: false,
        cpuProcesses: () => [{ name: 'server', pid: embedded.pid }],
        rssPid: () => embedded.pid,
        logs: () => [embedded],
        run: wrkRun(fleet, url, BATCH_BODY, BATCH_CONNECTIONS, options.durationSec),
        warmUp: async () => {
          const { status, json } = await postJson(url, BATCH_BODY, fleet.apiKey);
          const results = json.results as Array<{ id: string; hash: string }> | undefined;
          const last = `0999${DATA.slice(4)}`;
          if (status !== 200 || results?.length !== BATCH_ITEMS || results[999]?.hash !== sha224(last)) {
            throw new Error(`sha224d embedded: /v2/batch answered ${status} ${JSON.stringify(json).slice(0, 300)}`);
          }
          await wrkRun(fleet, url, BATCH_BODY, BATCH_CONNECTIONS, options.durationSec)();
        },
      },
    ],
  };
}

/** /v2/ws hash messages on `connections` connections against a bare ws server doing the same hashing. */
export async function wsScenario(fleet: Fleet, options: BenchOptions, connections: number): Promise<Scenario> {
  const [bare, embedded] = await Promise.all([fleet.bare(), fleet.embedded()]);
  const wsUrl = (origin: string): string => {
    const url = new URL('/v2/ws', origin.replace(/^http/, 'ws'));
    url.searchParams.set('api_key', fleet.apiKey);
    return url.toString();
  };
  const load = async (origin: string, connections: number, ms: number): Promise<LoadRun> => {
    const out = await runPinned('load', process.execPath, [
      '--import',
      'tsx',
      path.join(ROOT, 'test', 'bench', 'ws.ts'),
      wsUrl(origin),
      String(connections),
      String(ms),
    ]);
    const r = JSON.parse(out) as WsLoadResult;
    return { ops: r.messages, seconds: r.seconds };
  };
  const subject = (name: string, reference: boolean, proc: ServerProcess): Subject => ({
    name,
    reference,
    cpuProcesses: () => [{ name: 'server', pid: proc.pid }],
    rssPid: () => proc.pid,
    ...(reference ? {} : { logs: () => [proc] }),
    run: () => load(proc.url, connections, options.durationSec * 1000),
    warmUp: () => load(proc.url, connections, options.durationSec * 1000),
  });
  return {
    id: `ws-${connections}`,
    group: 'ws',
    title: `/v2/ws hash messages, ${connections} connection${connections > 1 ? 's' : ''} × ${WS_IN_FLIGHT} in flight`,
    unit: 'msg/s',
    op: 'msg',
    subjects: [subject('bare ws on node:http', true, bare), subject('sha224d embedded', false, embedded)],
  };
}

/** One chunked /v2/stream upload per round against a bare node:http server hashing while it receives. */
export async function streamScenario(fleet: Fleet, options: BenchOptions): Promise<Scenario> {
  const [bare, embedded, api, redis] = await Promise.all([fleet.bare(), fleet.embedded(), fleet.apiInline(), fleet.redisServer()]);
  const upload = async (name: string, origin: string, bytes: number): Promise<LoadRun> => {
    const out = await runPinned('load', process.execPath, [
      path.join(ROOT, 'test', 'bench', 'stream-client.mjs'),
      `${origin}/v2/stream`,
      String(bytes),
      fleet.apiKey,
    ]);
    const r = JSON.parse(out) as { status: number; seconds: number; bytes: number; sent_digest: string; body: string };
    const reply = JSON.parse(r.body) as { hash?: string; size?: number };
    if (r.status !== 200 || reply.hash !== r.sent_digest || reply.size !== bytes) {
      throw new Error(`${name}: /v2/stream answered ${r.status} ${r.body.slice(0, 300)}`);
    }
    return { ops: bytes / 1e6, seconds: r.seconds };
  };
  const subject = (name: string, reference: boolean, proc: ServerProcess, withRedis = false): Subject => ({
    name,
    reference,
    cpuProcesses: () => [{ name: withRedis ? 'api' : 'server', pid: proc.pid }, ...(withRedis ? [{ name: 'redis', pid: redis.pid }] : [])],
    rssPid: () => proc.pid,
    ...(reference ? {} : { logs: () => [proc] }),
    ...(withRedis ? { redisUrl: redis.url } : {}),
    run: () => upload(name, proc.url, options.streamBytes),
    warmUp: () => upload(name, proc.url, 16 * 1024 * 1024),
  });
  return {
    id: 'stream',
    group: 'stream',
    title: `POST /v2/stream, ${(options.streamBytes / 1024 / 1024).toFixed(0)} MiB chunked, one upload per round`,
    unit: 'MB/s',
    op: 'MB',
    subjects: [
      subject('bare node:http hashing while receiving', true, bare),
      subject('sha224d embedded', false, embedded),
      // A synchronous upload is hashed on the API node as it arrives in either mode (docs/decisions.md).
      subject('sha224d distributed API node (+Redis)', false, api, true),
    ],
  };
}

/** POSTs /v2/hash every 5 ms until the first 200; connection refusals are expected until the server listens. */
async function firstOk(port: number, apiKey: string, proc: ServerProcess, deadlineMs = 60_000): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  while (performance.now() < deadline) {
    if (!proc.running()) throw new Error(`${proc.name} exited during its cold start:\n${proc.log()}`);
    const status = await new Promise<number>((resolve) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/v2/hash',
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(HASH_BODY);
    });
    if (status === 200) return;
    await sleep(5);
  }
  throw new Error(`${proc.name} served no 200 within ${deadlineMs} ms`);
}

/** From spawn to the first 200 of POST /v2/hash, a fresh process each round, against bare node:http. */
export function coldStartScenario(fleet: Fleet): Scenario {
  const start = async (name: string, command: string, args: string[], env: Record<string, string>): Promise<LoadRun> => {
    const port = await freePort();
    const t0 = performance.now();
    const proc = ServerProcess.launch(fleet.launchOptions(name, command, args, { ...env, PORT: String(port) }, true));
    try {
      await firstOk(port, fleet.apiKey, proc);
      const seconds = (performance.now() - t0) / 1000;
      return { ops: 1, seconds, cpuMicros: cpuMicros(proc.pid), peakRssBytes: peakRssBytes(proc.pid) };
    } finally {
      await proc.stop();
    }
  };
  const subject = (name: string, reference: boolean, args: string[], env: () => Promise<Record<string, string>>): Subject => ({
    name,
    reference,
    cpuProcesses: () => [],
    run: async () => start(name, process.execPath, args, await env()),
    warmUp: async () => start(name, process.execPath, args, await env()),
  });
  const fixed = (env: Record<string, string>) => () => Promise.resolve(env);
  return {
    id: 'cold',
    group: 'cold',
    title: 'cold start: spawn to the first 200 of POST /v2/hash (a fresh process per round)',
    unit: 'ms',
    op: 'start',
    subjects: [
      subject('bare node:http', true, [path.join(ROOT, 'test', 'bench', 'bare-server.mjs')], fixed({})),
      subject('sha224d embedded', false, [...NODE_FLAGS, path.join(ROOT, 'dist', 'embedded.js')], fixed(fleet.embeddedEnv())),
      // Its peak RSS is the distributed API node's footprint after its first request.
      subject('sha224d distributed API node (+Redis)', false, [...NODE_FLAGS, path.join(ROOT, 'dist', 'api.js')], () =>
        fleet.distributedEnv(),
      ),
    ],
  };
}

/**
 * The queue path with 1 and with 3 API nodes in front of one worker and the private Redis, each
 * node under the same load (a third of `connections`, a wrk per node, at once; 3 nodes carry
 * `connections` in all): the API nodes' CPU per request and Redis commands per request should not
 * grow with the number of nodes (each node's outcomes come on its own channel, and how many jobs a
 * bundle carries depends on the node's own load; docs/decisions.md "Jobs and modes").
 */
export async function scaleoutScenario(fleet: Fleet, options: BenchOptions): Promise<Scenario> {
  const NODES = 3;
  const [{ apis, worker }, redis] = await Promise.all([fleet.apiQueueNodes(NODES), fleet.redisServer()]);
  const share = Math.max(1, Math.round(options.connections / NODES));
  const load = (nodes: ServerProcess[]) => async (): Promise<LoadRun> => {
    const runs = await Promise.all(nodes.map((n) => wrkRun(fleet, `${n.url}/v2/hash`, HASH_BODY, share, options.durationSec)()));
    return {
      ops: runs.reduce((a, r) => a + r.ops, 0),
      seconds: Math.max(...runs.map((r) => r.seconds)),
      p50Ms: Math.max(...runs.map((r) => r.p50Ms ?? 0)),
      p99Ms: Math.max(...runs.map((r) => r.p99Ms ?? 0)),
      errors: runs.reduce((a, r) => a + (r.errors ?? 0), 0),
    };
  };
  const subject = (name: string, reference: boolean, nodes: ServerProcess[]): Subject => ({
    name,
    reference,
    redisUrl: redis.url,
    cpuProcesses: () => [
      ...nodes.map((n, i) => ({ name: nodes.length > 1 ? `api-${i + 1}` : 'api', pid: n.pid })),
      { name: 'worker', pid: worker.pid },
      { name: 'redis', pid: redis.pid },
    ],
    rssPid: () => nodes[0]!.pid,
    logs: () => [...nodes, worker],
    run: load(nodes),
    warmUp: async () => {
      for (const n of nodes) await checkHash(name, n.url, fleet.apiKey);
      await load(nodes)();
    },
  });
  return {
    id: 'scaleout',
    group: 'scaleout',
    title: `POST /v2/hash, 64 B, queue path (INLINE_MAX_BYTES=0), ${share} connections per API node, 1 or ${NODES} nodes, 1 worker (wrk)`,
    unit: 'req/s',
    op: 'req',
    subjects: [
      subject('queue path, 1 API node (+worker, Redis)', true, apis.slice(0, 1)),
      subject(`queue path, ${NODES} API nodes (+worker, Redis)`, false, apis),
    ],
  };
}
