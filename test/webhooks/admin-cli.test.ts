/** `webhooks list` and `webhooks deliveries` of the admin CLI, spawned against an embedded store with real deliveries. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { startWebhookFixture, type WebhookFixture } from './fixture.js';
import { startReceiver, type Receiver } from './receiver.js';

let fx: WebhookFixture;
let rx: Receiver;

function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: fx.dataDir, LOG_LEVEL: 'warn' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX', 'SECRETS_KEY']) delete env[name];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'deploy', 'admin', 'cli.ts'), ...args],
      { env, cwd: ROOT },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  rx = await startReceiver();
  fx = await startWebhookFixture({ schedule: '0' });
  rx.script('/down', { status: 503 });
  const ok = await fx.webhooks.service.createEndpoint({ accountId: fx.accountId, url: rx.url('/up'), description: 'up' });
  const down = await fx.webhooks.service.createEndpoint({ accountId: fx.accountId, url: rx.url('/down'), eventTypes: ['job.completed'] });
  await fx.webhooks.service.jobFinished({ id: 'job-cli', kind: 'hash', accountId: fx.accountId, state: 'completed' });
  await waitFor(async () => {
    const [a] = await fx.webhooks.core.store.deliveries({ endpointId: ok.endpoint.id, limit: 1 });
    const [b] = await fx.webhooks.core.store.deliveries({ endpointId: down.endpoint.id, limit: 1 });
    return a?.status === 'delivered' && b?.status === 'failed';
  });
});

afterAll(async () => {
  await fx.close();
  await rx.close();
});

describe('admin CLI: webhooks', () => {
  it('lists endpoints as JSON and as a table, with no secret', async () => {
    const json = await admin('webhooks', 'list', '--json');
    expect(json.code).toBe(0);
    const { endpoints } = JSON.parse(json.stdout) as { endpoints: Array<Record<string, unknown>> };
    expect(endpoints.map((e) => e.url).sort()).toEqual([rx.url('/down'), rx.url('/up')]);
    expect(endpoints.find((e) => e.url === rx.url('/down'))).toMatchObject({
      accountId: fx.accountId,
      enabled: true,
      eventTypes: ['job.completed'],
    });
    expect(json.stdout).not.toMatch(/whsec_|secret/i);
    const text = await admin('webhooks', 'list');
    expect(text.stdout.split('\n')[0]).toMatch(/^ID\s+ACCOUNT\s+URL\s+ENABLED/);
  });

  it('lists failed deliveries with their last answer', async () => {
    const res = await admin('webhooks', 'deliveries', '--failed', '--json');
    expect(res.code).toBe(0);
    const { deliveries } = JSON.parse(res.stdout) as { deliveries: Array<Record<string, unknown>> };
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastStatusCode: 503,
      eventType: 'job.completed',
      nextAttemptAt: null,
    });
    const all = JSON.parse((await admin('webhooks', 'deliveries', '--json', '--account', fx.accountId)).stdout) as {
      deliveries: unknown[];
    };
    expect(all.deliveries).toHaveLength(2);
    const refused = await admin('webhooks', 'deliveries', '--failed', '--pending');
    expect(refused.code).not.toBe(0);
  });
});
