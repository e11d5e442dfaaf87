/**
 * Embedded-mode webhooks in the test process: a SQLite store in a temp dir, the in-process queue
 * with the real handlers, and the local dispatcher, configured like `npm start` but with a
 * squeezed retry schedule and the test's own WEBHOOK_ALLOW_CIDRS.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { createLogger } from '../../shared/log.js';
import { InProcessQueue } from '../../shared/queue/in-process.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import { startLocalWebhooks, type LocalWebhooks } from '../../shared/webhooks/local.js';
import { createJobHandlers } from '../../workers/registry.js';

export interface WebhookFixtureOptions {
  allowCidrs?: string;
  schedule?: string;
  pollMs?: number;
  dataDir?: string;
  timeoutMs?: number;
}

export interface WebhookFixture {
  dataDir: string;
  store: KyselyAccountStore;
  queue: InProcessQueue;
  webhooks: LocalWebhooks;
  accountId: string;
  close(): Promise<void>;
}

export async function startWebhookFixture(options: WebhookFixtureOptions = {}): Promise<WebhookFixture> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-webhooks-'));
  const logger = createLogger('silent');
  const store = await createStore({ sqlitePath: path.join(dataDir, 'sha224d.sqlite') });
  const blobs = new LocalDiskBlobStore(path.join(dataDir, 'blobs'));
  const queue = new InProcessQueue({
    handlers: createJobHandlers({ allowLoopbackUrls: false }),
    blobs,
    logger,
    concurrency: 4,
    retentionMs: 60_000,
    blobRetentionMs: 0,
  });
  const webhooks = await startLocalWebhooks({
    config: {
      mode: 'embedded',
      dataDir,
      SECRETS_KEY: undefined,
      SECRETS_KEY_PREVIOUS: undefined,
      WEBHOOK_ALLOW_CIDRS: options.allowCidrs ?? '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: options.schedule ?? '0,50ms,50ms,50ms',
      WEBHOOK_TIMEOUT_MS: options.timeoutMs ?? 5000,
      WEBHOOK_DISABLE_AFTER_DAYS: 5,
      WEBHOOK_SECRET_OVERLAP_HOURS: 24,
      WEBHOOK_POLL_MS: options.pollMs ?? 20,
      WEBHOOK_ENDPOINT_CONCURRENCY: 4,
    },
    db: store.db,
    queue,
    logger,
  });
  if (webhooks === undefined) throw new Error('webhooks did not start');
  const existing = await store.db.selectFrom('accounts').select('id').executeTakeFirst();
  const accountId = existing?.id ?? (await store.createAccount({ name: 'hooks', plan: 'enterprise' })).id;
  return {
    dataDir,
    store,
    queue,
    webhooks,
    accountId,
    async close() {
      await webhooks.close();
      await queue.close();
      await store.close();
    },
  };
}
