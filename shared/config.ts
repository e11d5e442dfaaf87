/**
 * All configuration, read from the environment once and validated with zod before any I/O.
 * Nothing else in the tree reads process.env.
 */
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number) => z.coerce.number().int().min(min);
const MiB = 1024 * 1024;

const envSchema = z.object({
  PORT: int(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** postgres://… selects PostgreSQL; unset → SQLite at DATA_DIR/sha224d.sqlite. */
  DATABASE_URL: z.string().optional(),
  /** Set → distributed mode: BullMQ queues and Redis-backed limits. */
  REDIS_URL: z.string().optional(),
  /** Namespace of every Redis key and channel: two deployments (or test runs) can share one Redis. */
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/).optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Seconds a synchronous request waits on its job before 504 JOB_TIMEOUT (issue 3). */
  SYNC_TIMEOUT: z.coerce.number().positive().default(30),
  /** Inputs up to this many bytes are hashed on the API node instead of through the queue. */
  INLINE_MAX_BYTES: int(0).default(64 * 1024),
  /** JSON request bodies (hash, batch, …). */
  MAX_JSON_BYTES: int(1024).default(16 * MiB),
  /** Default ceilings before plan limits (SPEC "Other limits": /v2/file 100 MB; /v2/stream for larger). */
  MAX_FILE_BYTES: int(1).default(100 * MiB),
  MAX_STREAM_BYTES: int(1).default(1024 * MiB),
  /** Seconds finished async jobs (and their results) are kept. */
  JOB_RETENTION_SECONDS: int(1).default(24 * 3600),
  /** Seconds uploaded blobs are kept after their job finished (0 = delete at once). */
  BLOB_RETENTION_SECONDS: int(0).default(0),
  WORKER_QUEUES: z.string().default('hash,batch,file,url,stream'),
  WORKER_CONCURRENCY: int(1).default(4),
  /** A job's lock lasts this long without renewal; a killed worker's job is taken over after it. */
  WORKER_LOCK_MS: int(1000).default(30_000),
  /** How often workers look for jobs whose worker died. */
  WORKER_STALLED_INTERVAL_MS: int(1000).default(30_000),
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
  /** Test-only escape hatch for the SSRF guard; off by default (issue 4). */
  URL_FETCH_ALLOW_LOOPBACK: bool.default(false),
  /** Enterprise JWT bearer tokens (SPEC "Authentication" rule 7). */
  JWT_SECRET: z.string().min(32).optional(),
  JWT_ISSUER: z.string().default('sha224d'),
  /** How often accepted request counts are written to the SQL store; a crash loses at most this much. */
  USAGE_FLUSH_INTERVAL_MS: int(100).default(5000),
  /** Path of the plan catalog JSON (issue 5); unset → built-in defaults from the spec. */
  PLANS_FILE: z.string().optional(),
  /** Create an admin account and print a key on first start (embedded mode). */
  BOOTSTRAP_ADMIN: bool.default(true),
  SHUTDOWN_GRACE_MS: int(0).default(10_000),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  mode: 'embedded' | 'distributed';
  dataDir: string;
  syncTimeoutMs: number;
  s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | undefined;
  workerQueues: string[];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  const e = parsed.data;
  const s3Set = [e.S3_ENDPOINT, e.S3_BUCKET].filter(Boolean).length;
  if (s3Set === 1) throw new Error('Invalid configuration: S3_ENDPOINT and S3_BUCKET go together');
  return {
    ...e,
    mode: e.REDIS_URL ? 'distributed' : 'embedded',
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
    workerQueues: e.WORKER_QUEUES.split(',').map((q) => q.trim()).filter(Boolean),
  };
}
