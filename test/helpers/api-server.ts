/**
 * An embedded-mode API in this test process on a random loopback port: real HTTP, real store
 * (SQLite or PostgreSQL), the in-process queue and the real job handlers, built by the same
 * buildApiNode (api/node.ts) as `npm start` and `npm run api`.
 */
import { Writable } from 'node:stream';
import type { Express } from 'express';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApiNode } from '../../api/node.js';
import type { Realtime, RealtimeOptions } from '../../api/realtime/index.js';
import { loadConfig, type Config } from '../../shared/config.js';
import { blobRetentionMs, openBlobStore, retentionMs } from '../../shared/infra.js';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { createLogger } from '../../shared/log.js';
import { InProcessQueue } from '../../shared/queue/in-process.js';
import { createStore } from '../../shared/store/kysely-store.js';
import { startLocalWebhooks } from '../../shared/webhooks/local.js';
import type { WebhookService } from '../../shared/webhooks/service.js';
import type { AccountStore, KeyType, Plan } from '../../shared/store/types.js';
import { createJobHandlers } from '../../workers/registry.js';
import { openEmbeddedBulk } from '../../shared/bulk/open.js';
import { openSecretBox } from '../../shared/webhooks/secrets-key.js';
import { createChunkProcessor } from '../../workers/bulk/process.js';
import { createTestDatabase, type EngineName } from '../store/engines.js';
import { auditResponses } from './openapi-conformance.js';

export interface TestServer {
  url: string;
  config: Config;
  store: AccountStore;
  accountId: string;
  keys: Record<KeyType, string>;
  /** Set when started with `realtime`. */
  realtime?: Realtime;
  /** Set when started with `webhooks` (and webhooks are on). */
  webhooks?: WebhookService;
  /** Every log line written so far. */
  logs: () => string;
  newKey(options: {
    type?: KeyType;
    plan?: Plan;
    expiresAt?: Date;
    allowedDomains?: string[];
  }): Promise<{ secret: string; id: string; accountId: string }>;
  close(): Promise<void>;
}

/**
 * `realtime`: also attach /v2/ws and socket.io (api/realtime), with these option overrides.
 * `tls`: listen with HTTPS (this certificate and key) instead of plain HTTP.
 */
export async function startTestServer(
  options: {
    engine?: EngineName;
    env?: Record<string, string>;
    realtime?: Partial<RealtimeOptions>;
    tls?: { cert: Buffer; key: Buffer };
    /** Called with the Express app the node serves, as built (test/openapi/served-routes.test.ts walks it). */
    onApp?: (app: Express) => void;
    /** Start embedded-mode webhooks (shared/webhooks/local.ts) as `npm start` does; set WEBHOOK_* in `env`. */
    webhooks?: boolean;
  } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-api-'));
  const db = await createTestDatabase(options.engine ?? 'sqlite');
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    PORT: '0',
    HOST: '127.0.0.1',
    // A test's close() waits this long at most for requests still in flight.
    SHUTDOWN_GRACE_MS: '1000',
    // The test folders run with HOT_PATH=off and on (api/http/hot-path.ts).
    ...(process.env.HOT_PATH === undefined ? {} : { HOT_PATH: process.env.HOT_PATH }),
    ...options.env,
    ...(db.options.databaseUrl ? { DATABASE_URL: db.options.databaseUrl } : {}),
  });
  let logText = '';
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _e, done) {
        logText += chunk.toString();
        done();
      },
    }),
  );
  const store = await createStore(db.name === 'sqlite' ? { sqlitePath: path.join(dataDir, 'sha224d.sqlite') } : db.options);
  const blobs = await openBlobStore(config);
  const queue = new InProcessQueue({
    handlers: createJobHandlers({ allowLoopbackUrls: config.URL_FETCH_ALLOW_LOOPBACK }),
    blobs,
    logger,
    concurrency: 4,
    retentionMs: retentionMs(config),
    blobRetentionMs: blobRetentionMs(config),
  });
  const webhooks = options.webhooks === true ? await startLocalWebhooks({ config, db: store.db, queue, logger }) : undefined;
  const secrets = await openSecretBox(config);
  const processor = createChunkProcessor({ allowLoopback: config.URL_FETCH_ALLOW_LOOPBACK, ...(secrets ? { secrets } : {}) });
  const bulk = { ...openEmbeddedBulk(config, blobs, logger, processor), ...(secrets ? { secrets } : {}) };
  const cleanups = [() => bulk.chunks.close(), ...(webhooks ? [() => webhooks.close()] : [])];
  // Every /v1 and /v2 answer is held against the OpenAPI document; close() reports what was off it.
  const offDocument: string[] = [];
  const node = await buildApiNode(
    { config, logger, store, queue, blobs, bulk, cleanups, ...(webhooks ? { webhooks: webhooks.service } : {}) },
    {
      tls: options.tls,
      wrapApp: (app, listener) => {
        options.onApp?.(app);
        return auditResponses(listener, offDocument, { sandboxHost: config.SANDBOX_HOST });
      },
      realtime: options.realtime ?? false,
    },
  );

  const account = await store.createAccount({ name: 'test', plan: 'enterprise' });
  const keys = {} as Record<KeyType, string>;
  for (const type of ['production', 'development', 'read_only', 'client'] as const) {
    const { secret } = await createApiKey(store, {
      accountId: account.id,
      type,
      description: `${type} key`,
      allowedDomains: type === 'client' ? ['app.example.com', '*.example.org'] : [],
    });
    keys[type] = secret;
  }

  return {
    url: node.baseUrl,
    config,
    store,
    accountId: account.id,
    keys,
    realtime: node.realtime,
    ...(webhooks ? { webhooks: webhooks.service } : {}),
    logs: () => logText,
    async newKey({ type = 'production', plan, expiresAt, allowedDomains }) {
      const accountId = plan ? (await store.createAccount({ name: `acct-${plan}`, plan })).id : account.id;
      const { secret, record } = await createApiKey(store, { accountId, type, description: 'extra', expiresAt, allowedDomains });
      return { secret, id: record.id, accountId };
    },
    async close() {
      const stopping = (async () => {
        for (const stop of node.stops) await stop();
      })();
      // The first stop has begun the drain (synchronously, by then), which leaves idle keep-alive
      // connections to their timeout (api/server.ts); the test is over and sends nothing more on its
      // own, so they are closed now rather than at the grace.
      node.listeners.main.server.closeIdleConnections();
      await stopping;
      await db.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (offDocument.length > 0) throw new Error(`answers off the OpenAPI document:\n${offDocument.join('\n')}`);
    },
  };
}

/** POST JSON and return status, headers and parsed body. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, body: await res.json() };
}
