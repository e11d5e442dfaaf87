/**
 * The processes `npm run bench` measures, started on first use and kept for one scenario (Redis for
 * the whole run): the bare references, sha224d's embedded process, and a distributed set (API
 * nodes, a worker, Redis).
 *
 * sha224d runs as `npm start`, `npm run api` and `npm run worker` run it (the dist/ bundles, with
 * the scripts' node flags) and with its default configuration: the environment holds only what the
 * bench must choose (ports, DATA_DIR, REDIS_URL, a queue prefix) and, for the queue path,
 * INLINE_MAX_BYTES=0. Redis is a private redis-server with the settings README "Running
 * distributed" asks for (AOF every second, noeviction), so its CPU time is this run's alone.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { createStore } from '../../shared/store/kysely-store.js';
import { freePort, ROOT, ServerProcess } from './procs.js';

/** What package.json's start, api and worker scripts pass node (no --enable-source-maps: docs/decisions.md "Speed"). */
const DEFAULT_NODE_FLAGS: string[] = ['--max-semi-space-size=32'];

/** Only what a shell would hand any program; nothing of the caller's sha224d settings (LOG_LEVEL, REDIS_URL, …). */
function cleanEnvironment(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'];
  return Object.fromEntries(keep.flatMap((k) => (process.env[k] === undefined ? [] : [[k, process.env[k]]])));
}

export const SERVICE_READY = /listening on (http:\/\/\S+)/;

/**
 * Every Node server the load scenarios measure traces its collections into its log (one line per
 * collection, a few dozen a second under load): the bytes allocated per request and the GC pauses
 * behind the tail latency are read from there (procs.ts gcTraceSince). Cold start runs without it.
 */
const GC_TRACE = '--trace-gc-nvp';

/**
 * The node flags the npm scripts give the service (package.json "start", "api", "worker"; the
 * Dockerfile and manifests alike), which the bench's processes must run with too. BENCH_NODE_FLAGS
 * replaces them, to try others (e.g. `--enable-source-maps --max-semi-space-size=32`, as before).
 */
export const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? DEFAULT_NODE_FLAGS.join(' ')).split(' ').filter((flag) => flag !== '');

export class Fleet {
  readonly env = cleanEnvironment();
  private readonly started = new Map<string, Promise<ServerProcess>>();
  private redis: Promise<{ url: string; pid: number; proc?: ServerProcess }> | undefined;

  private constructor(
    readonly workDir: string,
    readonly dataDir: string,
    /** A production key of an enterprise account: no rate limit and no quota, so the figures never measure a refusal. */
    readonly apiKey: string,
    private readonly externalRedisUrl: string | undefined,
    /** Servers started with the loop-delay preload (procs.ts ServerOptions.loopDelay); one-off starts never. */
    private readonly loopDelay: boolean,
  ) {}

  static async create(workDir: string, externalRedisUrl: string | undefined, { loopDelay = false } = {}): Promise<Fleet> {
    execFileSync(process.execPath, [path.join(ROOT, 'deploy', 'build.mjs')], { stdio: 'inherit' });
    const dataDir = path.join(workDir, 'data');
    fs.mkdirSync(dataDir);
    const store = await createStore({ sqlitePath: path.join(dataDir, 'sha224d.sqlite') });
    try {
      const account = await store.createAccount({ name: 'bench', plan: 'enterprise' });
      const { secret } = await createApiKey(store, { accountId: account.id, type: 'production', description: 'bench' });
      return new Fleet(workDir, dataDir, secret, externalRedisUrl, loopDelay);
    } finally {
      await store.close();
    }
  }

  /** The command line of a dist/ entry, as the npm scripts run it. */
  private entry(name: 'embedded' | 'api' | 'worker'): [string, string[]] {
    return [process.execPath, [...NODE_FLAGS, GC_TRACE, path.join(ROOT, 'dist', `${name}.js`)]];
  }

  private once(name: string, start: () => Promise<ServerProcess>): Promise<ServerProcess> {
    let proc = this.started.get(name);
    if (!proc) {
      proc = start();
      this.started.set(name, proc);
    }
    return proc;
  }

  /** A server process of this fleet's kind; for one-off runs (cold start: `oneOff`, no preload), the caller stops it. */
  launchOptions(name: string, command: string, args: string[], env: Record<string, string>, oneOff = false) {
    return {
      name,
      command,
      args,
      env: { ...this.env, ...env },
      ready: SERVICE_READY,
      logDir: this.workDir,
      loopDelay: this.loopDelay && !oneOff,
    };
  }

  bare(): Promise<ServerProcess> {
    return this.once('bare', () =>
      ServerProcess.start(
        this.launchOptions('bare node:http', process.execPath, [GC_TRACE, path.join(ROOT, 'test', 'bench', 'bare-server.mjs')], {}),
      ),
    );
  }

  express(): Promise<ServerProcess> {
    return this.once('express', () =>
      ServerProcess.start(
        this.launchOptions('bare Express 5', process.execPath, [GC_TRACE, path.join(ROOT, 'test', 'bench', 'bare-express.mjs')], {}),
      ),
    );
  }

  embeddedEnv(): Record<string, string> {
    return { DATA_DIR: this.dataDir, PORT: '0' };
  }

  embedded(): Promise<ServerProcess> {
    return this.once('embedded', () =>
      ServerProcess.start(this.launchOptions('sha224d embedded', ...this.entry('embedded'), this.embeddedEnv())),
    );
  }

  /** The same with HOT_PATH=off: every route through Express (api/http/hot-path.ts), for the hot path's gain in the same run. */
  embeddedHotPathOff(): Promise<ServerProcess> {
    return this.once('embedded-hot-path-off', () =>
      ServerProcess.start(
        this.launchOptions('sha224d embedded HOT_PATH=off', ...this.entry('embedded'), { ...this.embeddedEnv(), HOT_PATH: 'off' }),
      ),
    );
  }

  /** Redis: its URL and the pid its CPU is read from (`INFO server` process_id). */
  redisServer(): Promise<{ url: string; pid: number }> {
    this.redis ??= this.startRedis();
    return this.redis;
  }

  private async startRedis(): Promise<{ url: string; pid: number; proc?: ServerProcess }> {
    let url = this.externalRedisUrl;
    let proc: ServerProcess | undefined;
    if (url === undefined) {
      const port = await freePort();
      const dir = path.join(this.workDir, 'redis');
      fs.mkdirSync(dir);
      proc = await ServerProcess.start({
        name: 'redis',
        command: 'redis-server',
        // README "Running distributed": AOF every second, noeviction. No RDB snapshots, so no fork mid-round.
        args: ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''].concat([
          '--appendonly',
          'yes',
          '--appendfsync',
          'everysec',
          '--maxmemory-policy',
          'noeviction',
        ]),
        env: this.env,
        ready: /Ready to accept connections/,
        logDir: this.workDir,
      });
      url = `redis://127.0.0.1:${port}`;
    }
    const info = execFileSync('redis-cli', ['-u', url, 'INFO', 'server'], { encoding: 'utf8' });
    const pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    if (!Number.isInteger(pid) || !fs.existsSync(`/proc/${pid}`))
      throw new Error(`Redis at ${url} is not a process on this machine (process_id ${pid})`);
    return { url, pid, ...(proc ? { proc } : {}) };
  }

  /** What an API node or worker of this fleet is started with: the private Redis, the shared data directory. */
  async distributedEnv(): Promise<Record<string, string>> {
    const redis = await this.redisServer();
    return { DATA_DIR: this.dataDir, REDIS_URL: redis.url, QUEUE_PREFIX: `bench${process.pid}`, PORT: '0' };
  }

  /** An API node hashing small inputs itself (the default INLINE_MAX_BYTES). */
  apiInline(): Promise<ServerProcess> {
    return this.once('api-inline', async () =>
      ServerProcess.start(this.launchOptions('sha224d api (inline)', ...this.entry('api'), await this.distributedEnv())),
    );
  }

  /** An API node sending everything through the queue (INLINE_MAX_BYTES=0), and one worker with its defaults. */
  async apiQueue(): Promise<{ api: ServerProcess; worker: ServerProcess }> {
    const api = await this.once('api-queue', async () =>
      ServerProcess.start(
        this.launchOptions('sha224d api (queue)', ...this.entry('api'), { ...(await this.distributedEnv()), INLINE_MAX_BYTES: '0' }),
      ),
    );
    return { api, worker: await this.worker() };
  }

  /** One worker with its defaults. */
  worker(): Promise<ServerProcess> {
    return this.once('worker', async () =>
      ServerProcess.start({
        ...this.launchOptions('sha224d worker', ...this.entry('worker'), { ...(await this.distributedEnv()), METRICS_PORT: '0' }),
        ready: /worker ready/,
      }),
    );
  }

  /**
   * `count` API nodes sending everything through the queue, and the one worker of apiQueue: the
   * scale-out scenario (the first node is apiQueue's own).
   */
  async apiQueueNodes(count: number): Promise<{ apis: ServerProcess[]; worker: ServerProcess }> {
    const { api, worker } = await this.apiQueue();
    const more = await Promise.all(
      Array.from({ length: count - 1 }, (_, i) =>
        this.once(`api-queue-${i + 2}`, async () =>
          ServerProcess.start(
            this.launchOptions(`sha224d api (queue) ${i + 2}`, ...this.entry('api'), {
              ...(await this.distributedEnv()),
              INLINE_MAX_BYTES: '0',
            }),
          ),
        ),
      ),
    );
    return { apis: [api, ...more], worker };
  }

  /**
   * Stops every server but Redis, so the next scenario starts fresh ones: a process's state after
   * one scenario (a heap grown under load, garbage not yet collected) must not price the next.
   */
  async stopServers(): Promise<void> {
    const procs = await Promise.allSettled([...this.started.values()]);
    this.started.clear();
    await Promise.all(procs.flatMap((p) => (p.status === 'fulfilled' ? [p.value.stop()] : [])));
  }

  async stop(): Promise<void> {
    await this.stopServers();
    const redis = await this.redis?.catch(() => undefined);
    await redis?.proc?.stop();
  }
}
