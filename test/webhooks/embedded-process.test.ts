/**
 * `npm start` as a process (dist/embedded.js): an async job submitted over HTTP reaches a loopback
 * receiver as a signed job.completed; then the process is killed (SIGKILL) with 50 deliveries
 * pending in its SQLite store, started again, and delivers all 50, each once, with their ids.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/log.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import { openWebhookCore, type WebhookCore } from '../../shared/webhooks/open.js';
import { WebhookService } from '../../shared/webhooks/service.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, type Receiver } from './receiver.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-hooks-proc-'));
const env = {
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  REDIS_URL: '',
  PORT: '0',
  SECRETS_KEY: '',
  WEBHOOK_ALLOW_CIDRS: '127.0.0.1',
  WEBHOOK_POLL_MS: '50',
  WEBHOOK_RETRY_SCHEDULE: '0,100ms,100ms',
};
let rx: Receiver;
let proc: SpawnedProcess;
let store: KyselyAccountStore;
let core: WebhookCore;

beforeAll(async () => {
  rx = await startReceiver();
});

afterAll(async () => {
  await proc?.stop('SIGKILL');
  await store?.close();
  await rx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** This test process opens the same store and key file, but runs no dispatcher of its own. */
async function openSide(): Promise<WebhookService> {
  store = await createStore({ sqlitePath: path.join(dataDir, 'sha224d.sqlite') });
  core = (await openWebhookCore(
    {
      mode: 'embedded',
      dataDir,
      SECRETS_KEY: undefined,
      SECRETS_KEY_PREVIOUS: undefined,
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '0',
      WEBHOOK_TIMEOUT_MS: 5000,
      WEBHOOK_DISABLE_AFTER_DAYS: 5,
      WEBHOOK_SECRET_OVERLAP_HOURS: 24,
    },
    store.db,
    createLogger('silent'),
  ))!;
  return new WebhookService({ store: core.store, box: core.box, schedule: () => Promise.resolve(), secretOverlapMs: 0 });
}

describe('embedded process', () => {
  it('delivers an async job over HTTP, and 50 deliveries left pending by a SIGKILL after a restart', async () => {
    proc = spawnEntry('embedded', env);
    const base = (await proc.waitFor(/listening on (http:\/\/[\d.:]+)/))[1]!;
    const key = (await proc.waitFor(/API key: (\S+)/))[1]!;
    const service = await openSide();
    const account = await store.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
    const { endpoint, secret } = await service.createEndpoint({ accountId: account.id, url: rx.url('/proc') });

    const res = await fetch(`${base}/v2/batch?async=true`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [
          { id: 'a', data: 'abc' },
          { id: 'b', data: 'def' },
        ],
      }),
    });
    expect(res.status).toBe(202);
    const { job_id: jobId } = (await res.json()) as { job_id: string };
    const [req] = await waitFor(
      () => rx.received.filter((r) => r.path === '/proc').length === 1 && rx.received.filter((r) => r.path === '/proc'),
      {
        timeoutMs: 20_000,
      },
    );
    expect(new Webhook(secret).verify(req!.body, req!.headers)).toMatchObject({
      type: 'job.completed',
      data: { job_id: jobId, kind: 'batch', status: 'completed', count: 2 },
    });

    // Its outcome recorded (killed before that, it would be sent again: at least once).
    await waitFor(async () => (await core.store.deliveries({ endpointId: endpoint.id, limit: 1 }))[0]?.status === 'delivered');
    // Killed; meanwhile 50 events are recorded (as a crash right after recording them would leave them).
    await proc.stop('SIGKILL');
    for (let i = 0; i < 50; i++) await service.jobFinished({ id: `job-${i}`, kind: 'hash', accountId: account.id, state: 'completed' });
    const pending = await core.store.deliveries({ endpointId: endpoint.id, status: 'pending', limit: 100 });
    expect(pending).toHaveLength(50);

    proc = spawnEntry('embedded', env);
    await proc.waitFor(/listening on/);
    await waitFor(() => rx.received.filter((r) => r.path === '/proc').length >= 51, {
      timeoutMs: 30_000,
      what: '50 deliveries after the restart',
    });
    const after = rx.received.filter((r) => r.path === '/proc').slice(1);
    expect(after).toHaveLength(50);
    expect(new Set(after.map((r) => r.headers['webhook-id']))).toEqual(new Set(pending.map((d) => d.id)));
    for (const r of after) new Webhook(secret).verify(r.body, r.headers);
    await waitFor(async () => (await core.store.pendingCount()) === 0);
  });
});
