/**
 * Egress policy at delivery time, and durability: pending deliveries are rows in SQLite, so an
 * embedded node that stops with 50 of them pending delivers all 50 once it is started again.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdsFor, waitFor } from '../helpers/wait.js';
import { startWebhookFixture } from './fixture.js';
import { startReceiver, type Receiver } from './receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

describe('egress policy (SSRF)', () => {
  it('refuses, at delivery, a hostname resolving to 127.0.0.1 when WEBHOOK_ALLOW_CIDRS does not list it', async () => {
    const fx = await startWebhookFixture({ allowCidrs: '' });
    try {
      const { endpoint } = await fx.webhooks.service.createEndpoint({ accountId: fx.accountId, url: `https://localhost:${rx.port}/ssrf` });
      await fx.webhooks.service.jobFinished({ id: 'job-ssrf', kind: 'hash', accountId: fx.accountId, state: 'completed' });
      const [delivery] = await waitFor(async () => {
        const rows = await fx.webhooks.core.store.deliveries({ endpointId: endpoint.id, limit: 1 });
        return rows[0]?.status === 'failed' && rows;
      });
      expect(delivery).toMatchObject({ attempts: 4, lastStatusCode: undefined, lastError: 'ssrf:loopback' });
      expect(rx.received.filter((r) => r.path === '/ssrf')).toHaveLength(0);
    } finally {
      await fx.close();
    }
  });

  it('refuses the metadata address even over plain http with a permissive-looking list', async () => {
    const fx = await startWebhookFixture({ allowCidrs: '127.0.0.1', schedule: '0' });
    try {
      const { endpoint } = await fx.webhooks.service.createEndpoint({ accountId: fx.accountId, url: 'http://169.254.169.254/latest' });
      await fx.webhooks.service.jobFinished({ id: 'job-meta', kind: 'hash', accountId: fx.accountId, state: 'completed' });
      const delivery = await waitFor(async () => {
        const [row] = await fx.webhooks.core.store.deliveries({ endpointId: endpoint.id, limit: 1 });
        return row?.status === 'failed' && row;
      });
      expect(delivery.lastError).toBe('ssrf:cloud-metadata');
    } finally {
      await fx.close();
    }
  });
});

describe('restart', () => {
  it('an embedded node stopped with 50 pending deliveries delivers all 50 after it starts again', async () => {
    const first = await startWebhookFixture();
    const { endpoint, secret } = await first.webhooks.service.createEndpoint({ accountId: first.accountId, url: rx.url('/restart') });
    // The dispatcher is gone (as in a crash right after the events were recorded): the rows stay pending.
    await first.webhooks.dispatcher.close();
    for (let i = 0; i < 50; i++)
      await first.webhooks.service.jobFinished({ id: `job-r${i}`, kind: 'hash', accountId: first.accountId, state: 'completed' });
    const pending = await first.webhooks.core.store.deliveries({ endpointId: endpoint.id, status: 'pending', limit: 100 });
    expect(pending).toHaveLength(50);
    await holdsFor(() => rx.received.every((r) => r.path !== '/restart'), { forMs: 100, what: 'nothing sent while stopped' });
    await first.close();

    const second = await startWebhookFixture({ dataDir: first.dataDir });
    try {
      await waitFor(() => rx.received.filter((r) => r.path === '/restart').length >= 50, { what: '50 deliveries', timeoutMs: 20_000 });
      const got = rx.received.filter((r) => r.path === '/restart');
      const ids = got.map((r) => r.headers['webhook-id']);
      expect(new Set(ids)).toEqual(new Set(pending.map((d) => d.id)));
      expect(got).toHaveLength(50);
      // The secret is read back from the SQLite row with the key file the first start wrote.
      for (const r of got) new Webhook(secret).verify(r.body, r.headers);
      await waitFor(async () => (await second.webhooks.core.store.pendingCount()) === 0);
    } finally {
      await second.close();
    }
  });
});
