/**
 * Embedded-mode delivery end to end: a real async job finishes, its event is signed, POSTed to a
 * loopback receiver (allowed by the test's WEBHOOK_ALLOW_CIDRS) and verified with the
 * `standardwebhooks` package; then each answer a receiver can give, and what it leads to.
 */
import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdsFor, waitFor } from '../helpers/wait.js';
import { startWebhookFixture, type WebhookFixture } from './fixture.js';
import { startReceiver, type Receiver } from './receiver.js';

let fx: WebhookFixture;
let rx: Receiver;

beforeAll(async () => {
  rx = await startReceiver();
  fx = await startWebhookFixture();
});

afterAll(async () => {
  await fx.close();
  await rx.close();
});

async function endpointFor(path: string, eventTypes: string[] = []) {
  return fx.webhooks.service.createEndpoint({ accountId: fx.accountId, url: rx.url(path), eventTypes });
}

const at = (path: string) => rx.received.filter((r) => r.path === path);

async function deliveryOf(endpointId: string, status?: 'delivered' | 'failed') {
  const [d] = await fx.webhooks.core.store.deliveries({ endpointId, limit: 1 });
  return d !== undefined && (status === undefined || d.status === status) ? d : undefined;
}

describe('embedded webhooks', () => {
  it("delivers an async job's job.completed, signed so that standardwebhooks verifies it", async () => {
    const { endpoint, secret } = await endpointFor('/completed');
    const data = 'hello webhooks';
    const { id } = await fx.queue.submit('hash', { data, encoding: 'utf8' }, { accountId: fx.accountId, webhook: {} });
    const [req] = await waitFor(() => at('/completed').length === 1 && at('/completed'), { what: 'the delivery' });
    const event = new Webhook(secret).verify(req!.body, req!.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(event.type).toBe('job.completed');
    expect(event.data).toEqual({
      job_id: id,
      kind: 'hash',
      status: 'completed',
      hash: createHash('sha224').update(data).digest('hex'),
      size: Buffer.byteLength(data),
    });
    expect(req!.headers['webhook-id']).toMatch(/^msg_[0-9a-z]{26}$/);
    expect(Math.abs(Number(req!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(req!.headers['content-type']).toBe('application/json');
    const delivery = await waitFor(() => deliveryOf(endpoint.id, 'delivered'));
    expect(delivery).toMatchObject({ id: req!.headers['webhook-id'], attempts: 1, lastStatusCode: 200, eventType: 'job.completed' });
  });

  it('a delivery does not wait for the poll: with WEBHOOK_POLL_MS at 10 minutes, recording one wakes the dispatcher', async () => {
    const idle = await startWebhookFixture({ pollMs: 600_000 });
    try {
      const { secret } = await idle.webhooks.service.createEndpoint({ accountId: idle.accountId, url: rx.url('/woken') });
      // The second job finishes while the dispatcher sleeps on its 10-minute timer.
      for (const data of ['first', 'second']) {
        const { id } = await idle.queue.submit('hash', { data, encoding: 'utf8' }, { accountId: idle.accountId, webhook: {} });
        const [req] = await waitFor(
          () => {
            const got = at('/woken').filter((r) => r.body.includes(`"job_id":"${id}"`));
            return got.length === 1 && got;
          },
          { what: `the delivery of ${data}` },
        );
        expect(new Webhook(secret).verify(req!.body, req!.headers)).toMatchObject({ type: 'job.completed', data: { job_id: id } });
      }
    } finally {
      await idle.close();
    }
  });

  it('a synchronous job (no webhook target) makes no delivery; a failed async job makes job.failed', async () => {
    const { endpoint, secret } = await endpointFor('/failed', ['job.failed']);
    await fx.queue.run('hash', { data: 'sync', encoding: 'utf8' }, { accountId: fx.accountId, timeoutMs: 5000 });
    await fx.queue.submit('hash', { data: 'ok', encoding: 'utf8' }, { accountId: fx.accountId, webhook: {} });
    const { id } = await fx.queue.submit('hash', { data: '%%%', encoding: 'base64' }, { accountId: fx.accountId, webhook: {} });
    const [req] = await waitFor(() => at('/failed').length >= 1 && at('/failed'));
    const event = new Webhook(secret).verify(req!.body, req!.headers) as {
      type: string;
      data: { job_id: string; error: { code: string } };
    };
    expect(event.type).toBe('job.failed');
    expect(event.data.job_id).toBe(id);
    expect(event.data.error.code).toMatch(/^[A-Z_]+$/);
    await holdsFor(() => at('/failed').length === 1, { forMs: 300, what: 'one delivery (the filter drops job.completed)' });
    expect(await fx.webhooks.core.store.deliveries({ endpointId: endpoint.id, limit: 10 })).toHaveLength(1);
  });

  it('500 then 200: attempted again with the same webhook-id, then delivered', async () => {
    rx.script('/flaky', { status: 500 });
    const { endpoint, secret } = await endpointFor('/flaky');
    await fx.webhooks.service.jobFinished({
      id: 'job-flaky',
      kind: 'hash',
      accountId: fx.accountId,
      state: 'completed',
      result: { digest: 'aa', size: 1 },
    });
    const reqs = await waitFor(() => at('/flaky').length === 2 && at('/flaky'));
    expect(reqs[0]!.headers['webhook-id']).toBe(reqs[1]!.headers['webhook-id']);
    for (const r of reqs) new Webhook(secret).verify(r.body, r.headers);
    expect(await waitFor(() => deliveryOf(endpoint.id, 'delivered'))).toMatchObject({ attempts: 2, lastStatusCode: 200 });
    await holdsFor(() => at('/flaky').length === 2, { forMs: 200, what: 'no third attempt' });
  });

  it('429 with Retry-After: 2 waits at least 2 s before the next attempt', async () => {
    rx.script('/busy', { status: 429, headers: { 'retry-after': '2' } });
    const { endpoint } = await endpointFor('/busy');
    await fx.webhooks.service.jobFinished({ id: 'job-busy', kind: 'hash', accountId: fx.accountId, state: 'completed' });
    const reqs = await waitFor(() => at('/busy').length === 2 && at('/busy'), { timeoutMs: 15_000 });
    expect(reqs[1]!.at - reqs[0]!.at).toBeGreaterThanOrEqual(2000);
    expect(await waitFor(() => deliveryOf(endpoint.id, 'delivered'))).toMatchObject({ attempts: 2 });
  });

  it('410 Gone disables the endpoint; later events make no delivery to it', async () => {
    rx.script('/gone', { status: 410 });
    const { endpoint } = await endpointFor('/gone');
    await fx.webhooks.service.jobFinished({ id: 'job-gone-1', kind: 'hash', accountId: fx.accountId, state: 'completed' });
    expect(await waitFor(() => deliveryOf(endpoint.id, 'failed'))).toMatchObject({ attempts: 1, lastStatusCode: 410 });
    const after = await fx.webhooks.core.store.endpoint(endpoint.id);
    expect(after?.disabledAt).toBeTypeOf('number');
    expect(after?.disabledReason).toMatch(/410/);
    expect(
      await fx.webhooks.service.jobFinished({ id: 'job-gone-2', kind: 'hash', accountId: fx.accountId, state: 'completed' }),
    ).not.toContain(expect.anything());
    await holdsFor(() => at('/gone').length === 1, { forMs: 200, what: 'no attempt after 410' });
  });

  it('302 is a failed attempt and is never followed', async () => {
    rx.script('/moved', ...Array.from({ length: 4 }, () => ({ status: 302, headers: { location: rx.url('/elsewhere') } })));
    const { endpoint } = await endpointFor('/moved');
    await fx.webhooks.service.jobFinished({ id: 'job-moved', kind: 'hash', accountId: fx.accountId, state: 'completed' });
    // The squeezed schedule has four steps: four attempts, then failed.
    expect(await waitFor(() => deliveryOf(endpoint.id, 'failed'))).toMatchObject({ attempts: 4, lastStatusCode: 302 });
    expect(at('/moved')).toHaveLength(4);
    expect(at('/elsewhere')).toHaveLength(0);
  });

  it('a rotated secret signs beside the new one until the overlap ends; both verify', async () => {
    const { endpoint, secret: oldSecret } = await endpointFor('/rotated');
    const { secret: newSecret } = await fx.webhooks.service.rotateSecret(endpoint);
    const rotated = await fx.webhooks.core.store.endpoint(endpoint.id);
    expect(rotated?.rotatedAt).toBeTypeOf('number');
    await fx.webhooks.service.sendTest(rotated!);
    const [req] = await waitFor(() => at('/rotated').length === 1 && at('/rotated'));
    expect(req!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(req!.body, req!.headers)).toMatchObject({ type: 'webhook.test' });
    expect(new Webhook(newSecret).verify(req!.body, req!.headers)).toMatchObject({ type: 'webhook.test' });
    expect(newSecret).not.toBe(oldSecret);
  });

  it('a rotation after deliveries signed with the old secret: the next one is signed with the new secret too', async () => {
    const { endpoint, secret: oldSecret } = await endpointFor('/rotated-later');
    await fx.webhooks.service.sendTest(endpoint);
    const [first] = await waitFor(() => at('/rotated-later').length === 1 && at('/rotated-later'));
    expect(first!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    const { secret: newSecret } = await fx.webhooks.service.rotateSecret(endpoint);
    await fx.webhooks.service.sendTest((await fx.webhooks.core.store.endpoint(endpoint.id))!);
    const [, second] = await waitFor(() => at('/rotated-later').length === 2 && at('/rotated-later'));
    expect(second!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(second!.body, second!.headers)).toMatchObject({ type: 'webhook.test' });
    expect(new Webhook(oldSecret).verify(second!.body, second!.headers)).toMatchObject({ type: 'webhook.test' });
    expect(() => new Webhook(newSecret).verify(first!.body, first!.headers)).toThrow(/No matching signature/);
  });

  it('a replay sends the same webhook-id and payload again', async () => {
    const { endpoint } = await endpointFor('/replay');
    await fx.webhooks.service.jobFinished({ id: 'job-replay', kind: 'hash', accountId: fx.accountId, state: 'completed' });
    const delivery = await waitFor(() => deliveryOf(endpoint.id, 'delivered'));
    await fx.webhooks.service.replay(delivery);
    const reqs = await waitFor(() => at('/replay').length === 2 && at('/replay'));
    expect(reqs[1]!.headers['webhook-id']).toBe(delivery.id);
    expect(reqs[1]!.body).toBe(reqs[0]!.body);
  });

  it('a failing test event does not count against the endpoint', async () => {
    rx.script('/test-fails', { status: 500 });
    const { endpoint } = await endpointFor('/test-fails');
    await fx.webhooks.service.sendTest(endpoint);
    expect(await waitFor(() => deliveryOf(endpoint.id, 'failed'))).toMatchObject({ attempts: 1, isTest: true, lastStatusCode: 500 });
    const after = await fx.webhooks.core.store.endpoint(endpoint.id);
    expect(after).toMatchObject({ disabledAt: undefined, failingSince: undefined });
  });

  it('an event emitted twice for one job makes one delivery per endpoint', async () => {
    const { endpoint } = await endpointFor('/twice');
    const job = { id: 'job-twice', kind: 'hash', accountId: fx.accountId, state: 'completed' as const };
    const first = await fx.webhooks.service.jobFinished(job);
    const second = await fx.webhooks.service.jobFinished(job);
    expect(first.length).toBeGreaterThan(0);
    expect(second).toEqual([]);
    await waitFor(() => deliveryOf(endpoint.id, 'delivered'));
    expect(await fx.webhooks.core.store.deliveries({ endpointId: endpoint.id, limit: 10 })).toHaveLength(1);
  });
});
