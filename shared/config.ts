/**
 * All configuration, read from the environment once and validated with zod before any I/O.
 * Nothing else in the tree reads process.env.
 */
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_RETRY_POLICY } from './queue/retry-policy.js';
import { DEFAULT_MAX_WAITING } from './queue/waiting-bound.js';
import { DEFAULT_PG_BOUNDS } from './store/pg-bounds.js';
import { effectiveQueuePrefix, parseRedisTopology, QUEUE_PREFIX_PATTERN, type RedisTopology } from './redis/topology.js';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', '']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number) => z.coerce.number().int().min(min);
const MiB = 1024 * 1024;

const envSchema = z.object({
  PORT: int(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** postgres://… selects PostgreSQL; unset → SQLite at DATA_DIR/sha224d.sqlite. */
  DATABASE_URL: z.string().optional(),
  /**
   * PostgreSQL bounds (shared/store/pg-pool.ts): getting a connection, one statement (server-side
   * cancel), the client's own give-up for a server that cannot answer, an idle open transaction.
   * Past any of them a request answers 503 SERVICE_UNAVAILABLE with Retry-After.
   */
  PG_CONNECT_TIMEOUT_MS: int(100).default(DEFAULT_PG_BOUNDS.connectTimeoutMs),
  PG_STATEMENT_TIMEOUT_MS: int(100).default(DEFAULT_PG_BOUNDS.statementTimeoutMs),
  PG_QUERY_TIMEOUT_MS: int(100).default(DEFAULT_PG_BOUNDS.queryTimeoutMs),
  PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: int(1000).default(DEFAULT_PG_BOUNDS.idleInTransactionTimeoutMs),
  /** The most one request waits on PostgreSQL in all (connections and statements together). */
  PG_REQUEST_TIMEOUT_MS: int(100).default(DEFAULT_PG_BOUNDS.requestTimeoutMs),
  /** Set → distributed mode: BullMQ queues and Redis-backed limits. */
  REDIS_URL: z.string().optional(),
  /**
   * The other Redis topologies (shared/redis/topology.ts; docs/operating.md "Redis topologies"):
   * sentinels (host:port,…) and the monitored primary's name, or a cluster's seed nodes. One
   * topology only; REDIS_PASSWORD is the data nodes' AUTH for these two.
   */
  REDIS_SENTINELS: z.string().optional(),
  REDIS_SENTINEL_NAME: z.string().optional(),
  REDIS_SENTINEL_PASSWORD: z.string().optional(),
  REDIS_PASSWORD: z.string().optional(),
  REDIS_CLUSTER_NODES: z.string().optional(),
  /**
   * How long a job add that failed on a Redis failover is retried (same job id) before the request
   * answers 503 with Retry-After (shared/queue/failover-retry.ts).
   */
  REDIS_FAILOVER_RETRY_MS: int(0).max(60_000).default(8000),
  /**
   * Sentinel and Cluster: a job add is answered once a replica has it (WAIT), or after this long
   * if no replica acknowledges (0: answer at once; shared/redis/replica-wait.ts).
   */
  REDIS_REPLICA_WAIT_MS: int(0).max(10_000).default(1000),
  /**
   * Namespace of every Redis key and channel: two deployments (or test runs) can share one Redis.
   * May hold one hash tag `{…}`; on a cluster it must, and defaults to `{sha224d}`.
   */
  QUEUE_PREFIX: z
    .string()
    .regex(QUEUE_PREFIX_PATTERN, 'must be 1-64 characters of [A-Za-z0-9_.-] with at most one hash tag {…}')
    .optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Seconds a synchronous request waits on its job before 504 JOB_TIMEOUT. */
  SYNC_TIMEOUT: z.coerce.number().positive().default(30),
  /** Inputs up to this many bytes are hashed on the API node instead of through the queue. */
  INLINE_MAX_BYTES: int(0).default(64 * 1024),
  /** Synchronous file and stream uploads are hashed on the API node as their bytes arrive (docs/decisions.md "Jobs and modes"). */
  HASH_UPLOADS_WHILE_RECEIVING: bool.default(true),
  /**
   * The hot routes (hash, verify, hmac, batch) are recognised in the node:http listener and run
   * without Express's dispatch (api/http/hot-path.ts); `off` sends them through Express too.
   */
  HOT_PATH: z.enum(['on', 'off']).default('on'),
  /** JSON request bodies (hash, batch, …). */
  MAX_JSON_BYTES: int(1024).default(16 * MiB),
  /** Default ceilings before plan limits (docs/api.md "Other limits": /v2/file 100 MB; /v2/stream for larger). */
  MAX_FILE_BYTES: int(1).default(100 * MiB),
  MAX_STREAM_BYTES: int(1).default(1024 * MiB),
  /** Seconds finished async jobs (and their results) are kept. */
  JOB_RETENTION_SECONDS: int(1).default(24 * 3600),
  /** Seconds uploaded blobs are kept after their job finished (0 = delete at once). */
  BLOB_RETENTION_SECONDS: int(0).default(0),
  /**
   * The blob sweep (shared/blob/sweep.ts, docs/decisions.md "Jobs and modes"): how often workers
   * and the embedded process look for uploads no live job references (0 = never), and the grace
   * beyond BLOB_RETENTION_SECONDS before such an upload, or an unfinished one, is deleted.
   */
  BLOB_SWEEP_INTERVAL_SECONDS: z.coerce
    .number()
    .int('must be a whole number of seconds')
    .min(0, 'must be 0 (no sweep) or more seconds')
    .max(86_400, 'must be at most 86400 (a day)')
    .default(300),
  BLOB_SWEEP_GRACE_SECONDS: z.coerce
    .number()
    .int('must be a whole number of seconds')
    .min(60, 'must be at least 60, so an upload is never swept between its storing and its enqueue')
    .default(3600),
  /**
   * Resumable uploads (tus, /v2/uploads; docs/decisions.md "Resumable uploads"): how long an
   * upload may stay unfinished (Upload-Expires), how often its expired bytes are swept (0 =
   * never; expired uploads still answer 410 and delete their bytes when touched), and how long a
   * PATCH's write lock lasts without renewal (a killed node's lock lapses after it).
   */
  UPLOAD_EXPIRY_SECONDS: int(1).default(24 * 3600),
  UPLOAD_EXPIRY_SWEEP_INTERVAL_SECONDS: int(0).max(86_400).default(300),
  UPLOAD_LOCK_MS: int(1000).default(15_000),
  /**
   * Bulk jobs (docs/api.md "Bulk jobs"): items per chunk of an NDJSON or S3 job, and chunks run
   * at once by each worker process (or by the embedded process), on the `bulk` queue of their own.
   */
  BULK_CHUNK_ITEMS: int(1).max(1_000_000).default(10_000),
  BULK_CONCURRENCY: int(1).max(64).default(1),
  /** Workers serve the `bulk` queue too (set false for workers kept to interactive queues). */
  WORKER_BULK: bool.default(true),
  /**
   * The nice value (0-19) a worker serving the `bulk` queue lowers its process to at start, so an
   * API node on the same host keeps the CPU when both want it (docs/decisions.md "Bulk jobs").
   */
  // A nice value, or `idle` for SCHED_IDLE (workers/bulk/priority.ts).
  WORKER_BULK_NICE: z.union([z.literal('idle'), int(0).max(19)], { error: 'a nice value from 0 to 19, or idle' }).default(0),
  WORKER_QUEUES: z.string().default('hash,batch,file,url,stream'),
  WORKER_CONCURRENCY: int(1).default(4),
  /** A job's lock lasts this long without renewal; a killed worker's job is taken over after it. */
  WORKER_LOCK_MS: int(1000).default(30_000),
  /** How often workers look for jobs whose worker died. */
  WORKER_STALLED_INTERVAL_MS: int(1000).default(30_000),
  /**
   * Retry policy of distributed jobs (docs/decisions.md "Jobs and modes"): attempts for a retryable
   * failure (set on each job by the API node), the exponential base and cap between attempts, and
   * how many times a job may lose its worker before it fails (the workers' settings).
   */
  JOB_ATTEMPTS: int(1).max(1000).default(DEFAULT_RETRY_POLICY.attempts),
  JOB_BACKOFF_MS: int(0).default(DEFAULT_RETRY_POLICY.backoffMs),
  JOB_BACKOFF_MAX_MS: int(0).default(DEFAULT_RETRY_POLICY.backoffMaxMs),
  JOB_MAX_STALLED_COUNT: int(0).max(1000).default(DEFAULT_RETRY_POLICY.maxStalledCount),
  /**
   * Backpressure (docs/decisions.md "Jobs and modes"): a queue holding this many jobs no worker has
   * taken refuses new ones with 503 SERVICE_UNAVAILABLE and Retry-After; 0 = unbounded.
   */
  QUEUE_MAX_WAITING: int(0).default(DEFAULT_MAX_WAITING),
  /** Express "trust proxy" setting: false, true, a hop count, or a list of addresses. */
  TRUST_PROXY: z.string().default('false'),
  TLS_CERT: z.string().optional(),
  TLS_KEY: z.string().optional(),
  /** Port of the plain-HTTP listener that redirects to HTTPS when TLS is on. */
  HTTP_REDIRECT_PORT: int(0).max(65535).optional(),
  SANDBOX_PORT: int(0).max(65535).optional(),
  SANDBOX_HOST: z.string().optional(),
  /** WebSocket: ping interval (a peer that misses a ping is dropped), largest message, messages in flight per connection. */
  WS_PING_INTERVAL_MS: int(1000).default(30_000),
  WS_MAX_MESSAGE_BYTES: int(1024).default(1024 * 1024),
  WS_MAX_IN_FLIGHT: int(1).default(256),
  /** Test-only escape hatch for the SSRF guard; off by default. */
  URL_FETCH_ALLOW_LOOPBACK: bool.default(false),
  /** Enterprise JWT bearer tokens (docs/api.md "Authentication" rule 7). */
  JWT_SECRET: z.string().min(32).optional(),
  JWT_ISSUER: z.string().default('sha224d'),
  /** How often accepted request counts are written to the SQL store; a crash loses at most this much. */
  USAGE_FLUSH_INTERVAL_MS: int(100).default(5000),
  /** Budget of one request's rate and quota checks on Redis; past it the request gets 503 (never let through). */
  LIMITER_TIMEOUT_MS: int(50).default(2000),
  /** Path of the plan catalog JSON; unset → built-in defaults from the contract. */
  PLANS_FILE: z.string().optional(),
  /** Create an admin account and print a key on first start (embedded mode). */
  BOOTSTRAP_ADMIN: bool.default(true),
  SHUTDOWN_GRACE_MS: int(0).default(10_000),
  /**
   * Public base URL (scheme, host, port) of this deployment. Redirects to HTTPS are built from it,
   * never from the request's Host or X-Forwarded-Host (docs/limits.md "Connections and timeouts").
   */
  PUBLIC_URL: z
    .string()
    .refine(isPublicBaseUrl, 'must be an absolute http(s) URL with no path, query, fragment or credentials, e.g. https://api.example.com')
    .transform((v) => new URL(v).origin)
    .optional(),
  /** A request's headers must arrive within this long (then 408). */
  HEADERS_TIMEOUT_MS: int(100).default(15_000),
  /** A body that sends nothing for this long is answered 408 REQUEST_TIMEOUT and closed. */
  BODY_IDLE_TIMEOUT_MS: int(100).default(30_000),
  /** The whole request (headers and body) must arrive within this long, except on /v2/stream (then 408). */
  REQUEST_TIMEOUT_MS: int(100).default(300_000),
  /** An idle keep-alive connection is closed after this long. */
  KEEP_ALIVE_TIMEOUT_MS: int(100).default(5_000),
  /** A WebSocket upgrade must be answered (101 or a refusal) within this long, else the socket is closed. */
  WS_HANDSHAKE_TIMEOUT_MS: int(100).default(10_000),
  /** Concurrent connections per listener of an API node; further connections are closed at once. */
  MAX_CONNECTIONS: int(1).default(4096),
  /** After refusing a body (413, 400, 503), at most this many more bytes are read and discarded so the client can read the answer; past it, the connection is closed. */
  UPLOAD_DRAIN_MAX_BYTES: int(0).default(64 * MiB),
  /** Uploads by client keys (public, browser-side) are capped at this, below the plan's limit. */
  CLIENT_KEY_MAX_UPLOAD_BYTES: int(0).default(1 * MiB),
  /** Dashboard sessions end this long after sign-in, whatever the activity (docs/decisions.md "Dashboard and accounts"). */
  SESSION_MAX_AGE_HOURS: int(1)
    .max(24 * 90)
    .default(7 * 24),
  /** … and after this long without a request. */
  SESSION_IDLE_MINUTES: int(5)
    .max(60 * 24 * 30)
    .default(12 * 60),
  /** Sign-in throttling: failed attempts counted per fixed window, per client address and per email. */
  SIGN_IN_WINDOW_MINUTES: int(1)
    .max(24 * 60)
    .default(15),
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: int(1).default(20),
  SIGN_IN_MAX_FAILURES_PER_EMAIL: int(1).default(10),
  /** Rolling a key: how long the old key keeps working beside the new one, unless the roll says otherwise. */
  KEY_ROLL_GRACE_HOURS: int(0)
    .max(24 * 30)
    .default(24),
  /** The `aud` every per-account JWT must carry (tokens signed with an account's own key). */
  JWT_AUDIENCE: z.string().min(1).max(200).default('sha224d'),
  /**
   * Bearer token for /metrics (docs/operating.md "Where they are served"). Unset → the API's
   * /metrics is 404 and a worker may bind its metrics listener to loopback only.
   */
  METRICS_TOKEN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[\x21-\x7e]{16,512}$/, 'must be 16 to 512 visible ASCII characters, e.g. the output of openssl rand -hex 32')
      .optional(),
  ),
  /**
   * Workers: port of the /metrics, /healthz and /readyz listener (0 picks a free one). Unset: 9091,
   * or the next free port up to 9190 when another worker on the host has it (workers/metrics-server.ts).
   */
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), int(0).max(65535).optional()),
  /** Workers: address of that listener; a non-loopback one needs METRICS_TOKEN. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Operators' bearer token for the queue UI at /admin/queues (distributed mode); unset → the UI
   * is not served (404). At least 32 characters: it guards pausing and retrying queues.
   */
  ADMIN_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
  /** Let the queue UI change queues and jobs (retry, remove, pause); read-only by default. */
  ADMIN_QUEUE_WRITE: bool.default(false),
  /** Email of the first owner created at first start (the one-time link sets the password). */
  ADMIN_EMAIL: z.string().min(3).max(254).default('admin@localhost'),
  // Proof of existence (docs/proving.md): the transparency log and the RFC 3161 time-stamp authority.
  /** Ed25519 key signing the log's checkpoints: PKCS#8 PEM, base64 32-byte seed or a note signer key. Unset → DATA_DIR/log-signing-key.pem, made at first start (embedded mode only). */
  LOG_SIGNING_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  /** The log's origin line and key name (no spaces, no '+'). */
  LOG_ORIGIN: z
    .string()
    .regex(/^[^\s+]+$/u)
    .default('sha224d.local/log'),
  /** How often a checkpoint is signed while the log grows (receipts also sign one on demand); 0 = on demand only. */
  LOG_CHECKPOINT_INTERVAL_MS: int(0).default(5000),
  /** The TSA's ECDSA P-256 (or RSA) private key, PEM. Unset → DATA_DIR/tsa-key.pem with a self-signed certificate, made at first start (embedded mode only). */
  TSA_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  /** The TSA's certificate, PEM: extendedKeyUsage critical timeStamping. Goes with TSA_KEY. */
  TSA_CERT: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  /** The policy OID every time-stamp token names (default: a UUID-derived OID, 2.25.…, that needs no registration). */
  TSA_POLICY_OID: z
    .string()
    .regex(/^[0-2](\.(0|[1-9][0-9]*))+$/u)
    .default('2.25.263743475245763918334981377265087041885'),

  // --- Webhooks (docs/webhooks.md) ---
  /**
   * AES-256 key (64 hex digits or base64 of 32 bytes) sealing secrets that must be read back
   * (webhook signing secrets). Unset in embedded mode: generated once into DATA_DIR/secrets.key.
   * Distributed mode needs it set, the same on every node. Never logged.
   */
  SECRETS_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  /** The key before a rotation of SECRETS_KEY: still opens what it sealed (docs/webhooks.md "Secrets"). */
  SECRETS_KEY_PREVIOUS: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  /** Comma-separated addresses/CIDRs webhook delivery may reach although private (and over plain http). */
  WEBHOOK_ALLOW_CIDRS: z.string().default(''),
  /** Retry schedule, e.g. `0,5s,5m,30m,2h,5h,10h,10h` (the default); tests squeeze it. */
  WEBHOOK_RETRY_SCHEDULE: z.string().default('0,5s,5m,30m,2h,5h,10h,10h'),
  /** Per-attempt bound: connect, answer and the body excerpt. */
  WEBHOOK_TIMEOUT_MS: int(100).default(15_000),
  /** An endpoint failing without one success for this long is disabled. */
  WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().positive().default(5),
  /** Attempts in flight to one endpoint at once (per process). */
  WEBHOOK_ENDPOINT_CONCURRENCY: int(1).max(64).default(4),
  /** Embedded mode: how often the delivery table is read for due attempts. */
  WEBHOOK_POLL_MS: int(10).default(1000),
  /** After a secret rotation, how long the old secret still signs alongside the new one. */
  WEBHOOK_SECRET_OVERLAP_HOURS: z.coerce.number().min(0).default(24),
});

/** An origin-only http(s) URL: what PUBLIC_URL must be. */
function isPublicBaseUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === ''
  );
}

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  mode: 'embedded' | 'distributed';
  /** The Redis every connection of the process opens (undefined: embedded mode). */
  redis: RedisTopology | undefined;
  dataDir: string;
  syncTimeoutMs: number;
  s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | undefined;
  workerQueues: string[];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Parsed once per process: zod's compiled fast path (a generated function per object shape) costs
  // more to build for the ~200 settings than it saves on one parse (docs/decisions.md "Speed").
  const parsed = envSchema.safeParse(env, { jitless: true });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  const e = parsed.data;
  if (e.BODY_IDLE_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new Error('Invalid configuration: BODY_IDLE_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  }
  if (e.PG_QUERY_TIMEOUT_MS < e.PG_STATEMENT_TIMEOUT_MS) {
    throw new Error('Invalid configuration: PG_QUERY_TIMEOUT_MS must not be below PG_STATEMENT_TIMEOUT_MS');
  }
  if (e.JOB_BACKOFF_MAX_MS < e.JOB_BACKOFF_MS) {
    throw new Error('Invalid configuration: JOB_BACKOFF_MAX_MS must not be below JOB_BACKOFF_MS');
  }
  const s3Set = [e.S3_ENDPOINT, e.S3_BUCKET].filter(Boolean).length;
  if (s3Set === 1) throw new Error('Invalid configuration: S3_ENDPOINT and S3_BUCKET go together');
  let redis: RedisTopology | undefined;
  let queuePrefix: string | undefined;
  try {
    redis = parseRedisTopology(e);
    queuePrefix = effectiveQueuePrefix(redis, e.QUEUE_PREFIX);
  } catch (err) {
    throw new Error(`Invalid configuration: ${(err as Error).message}`, { cause: err });
  }
  return {
    ...e,
    QUEUE_PREFIX: queuePrefix,
    redis,
    mode: redis ? 'distributed' : 'embedded',
    dataDir: path.resolve(e.DATA_DIR),
    syncTimeoutMs: Math.round(e.SYNC_TIMEOUT * 1000),
    s3:
      e.S3_ENDPOINT && e.S3_BUCKET
        ? {
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
            secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
          }
        : undefined,
    workerQueues: e.WORKER_QUEUES.split(',')
      .map((q) => q.trim())
      .filter(Boolean),
  };
}
