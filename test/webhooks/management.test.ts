/**
 * The webhook routes' operations over a real store: roles as for keys (every member reads,
 * admins and owners manage), the secret shown once and sealed at rest, URL rules, rotation,
 * test events, delivery listing and replay, and the account boundary.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWebhookEndpointOp,
  deleteWebhookEndpointOp,
  listWebhookDeliveriesOp,
  listWebhookEndpointsOp,
  replayWebhookDeliveryOp,
  rotateWebhookSecretOp,
  testWebhookEndpointOp,
  updateWebhookEndpointOp,
} from '../../api/management/webhooks/operations.js';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointRequest,
  RotatedWebhookSecretResponse,
  WebhookDeliveryListQuery,
  WebhookDeliveryListResponse,
  WebhookEndpointListResponse,
} from '../../api/management/webhooks/schemas.js';
import { createLogger } from '../../shared/log.js';
import { startLocalWebhooks, type LocalWebhooks } from '../../shared/webhooks/local.js';
import { check, createFixture, type Fixture, refusal } from '../management/fixture.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, type Receiver } from './receiver.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let f: Fixture;
let hooks: LocalWebhooks;
let rx: Receiver;
const noJobs = { onFinished: () => () => undefined, get: () => Promise.resolve(undefined) };

beforeAll(async () => {
  f = await createFixture('sqlite');
  rx = await startReceiver();
  hooks = (await startLocalWebhooks({
    config: {
      mode: 'embedded',
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-hooks-mgmt-')),
      SECRETS_KEY: undefined,
      SECRETS_KEY_PREVIOUS: undefined,
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '0',
      WEBHOOK_TIMEOUT_MS: 5000,
      WEBHOOK_DISABLE_AFTER_DAYS: 5,
      WEBHOOK_SECRET_OVERLAP_HOURS: 1,
      WEBHOOK_POLL_MS: 20,
      WEBHOOK_ENDPOINT_CONCURRENCY: 2,
    },
    db: f.store.db,
    queue: noJobs,
    logger: createLogger('silent'),
  }))!;
  f.ctx.webhooks = hooks.service;
});

afterAll(async () => {
  await hooks.close();
  await rx.close();
  await f.close();
});

const create = (input: Partial<CreateWebhookEndpointRequest>) => CreateWebhookEndpointRequest.parse({ url: rx.url('/mgmt'), ...input });

describe('webhook management operations', () => {
  it('an admin creates an endpoint; the secret is shown once and sealed in the store', async () => {
    const admin = await f.member('admin');
    const created = check(CreatedWebhookEndpointResponse, await createWebhookEndpointOp(f.ctx, admin, create({ description: ' CI ' })));
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.endpoint).toMatchObject({ url: rx.url('/mgmt'), description: 'CI', enabled: true, eventTypes: [], rotatedAt: null });
    const listed = check(WebhookEndpointListResponse, await listWebhookEndpointsOp(f.ctx, admin));
    expect(listed.endpoints.map((e) => e.id)).toEqual([created.endpoint.id]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const row = await f.store.db
      .selectFrom('webhook_endpoints' as never)
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));
  });

  it('viewers and developers read but cannot manage', async () => {
    const admin = await f.member('admin');
    const { endpoint } = await createWebhookEndpointOp(f.ctx, admin, create({}));
    for (const role of ['viewer', 'developer'] as const) {
      const member = await f.member(role, 'pro', admin.account.id);
      expect((await listWebhookEndpointsOp(f.ctx, member)).endpoints).toHaveLength(1);
      expect((await refusal(createWebhookEndpointOp(f.ctx, member, create({})))).code).toBe('FORBIDDEN');
      expect((await refusal(rotateWebhookSecretOp(f.ctx, member, endpoint.id))).code).toBe('FORBIDDEN');
      expect((await refusal(deleteWebhookEndpointOp(f.ctx, member, endpoint.id))).code).toBe('FORBIDDEN');
    }
  });

  it.each([
    ['http://example.com/hook', /https/],
    ['https://user:pw@example.com/hook', /credentials/],
    ['https://10.0.0.1/hook', /private/],
    ['https://169.254.169.254/latest', /private/],
    ['ftp://example.com/', /https/],
    ['not a url', /https/],
  ])('refuses %s', async (url, message) => {
    const admin = await f.member('admin');
    const err = await refusal(createWebhookEndpointOp(f.ctx, admin, create({ url })));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(message);
  });

  it("another account's endpoint or delivery is not found", async () => {
    const admin = await f.member('admin');
    const other = await f.member('owner');
    const { endpoint } = await createWebhookEndpointOp(f.ctx, admin, create({}));
    expect((await refusal(updateWebhookEndpointOp(f.ctx, other, endpoint.id, { enabled: false }))).code).toBe('NOT_FOUND');
    expect((await refusal(testWebhookEndpointOp(f.ctx, other, endpoint.id))).code).toBe('NOT_FOUND');
    const { deliveryId } = await testWebhookEndpointOp(f.ctx, admin, endpoint.id);
    expect((await refusal(replayWebhookDeliveryOp(f.ctx, other, deliveryId))).code).toBe('NOT_FOUND');
  });

  it('test event, delivery list, replay with the same webhook-id, rotation, disable and delete', async () => {
    const admin = await f.member('owner');
    const { endpoint, secret } = await createWebhookEndpointOp(f.ctx, admin, create({ url: rx.url('/flow'), eventTypes: ['job.failed'] }));
    const { deliveryId } = await testWebhookEndpointOp(f.ctx, admin, endpoint.id);
    const [first] = await waitFor(
      () => rx.received.filter((r) => r.path === '/flow').length === 1 && rx.received.filter((r) => r.path === '/flow'),
    );
    expect(first!.headers['webhook-id']).toBe(deliveryId);
    expect(new Webhook(secret).verify(first!.body, first!.headers)).toMatchObject({ type: 'webhook.test' });
    const listed = await waitFor(async () => {
      const out = check(
        WebhookDeliveryListResponse,
        await listWebhookDeliveriesOp(f.ctx, admin, WebhookDeliveryListQuery.parse({ endpointId: endpoint.id })),
      );
      return out.deliveries[0]?.status === 'delivered' && out;
    });
    expect(listed.deliveries[0]).toMatchObject({ id: deliveryId, attempts: 1, lastStatusCode: 200, isTest: true, nextAttemptAt: null });

    await replayWebhookDeliveryOp(f.ctx, admin, deliveryId);
    const both = await waitFor(
      () => rx.received.filter((r) => r.path === '/flow').length === 2 && rx.received.filter((r) => r.path === '/flow'),
    );
    expect(both[1]!.headers['webhook-id']).toBe(deliveryId);

    const rotated = check(RotatedWebhookSecretResponse, await rotateWebhookSecretOp(f.ctx, admin, endpoint.id));
    expect(Date.parse(rotated.previousSecretExpiresAt) - f.clock.now.getTime()).toBe(3_600_000);
    await testWebhookEndpointOp(f.ctx, admin, endpoint.id);
    const third = await waitFor(() => rx.received.filter((r) => r.path === '/flow')[2]);
    expect(new Webhook(secret).verify(third.body, third.headers)).toMatchObject({ type: 'webhook.test' });
    expect(new Webhook(rotated.secret).verify(third.body, third.headers)).toMatchObject({ type: 'webhook.test' });

    const disabled = await updateWebhookEndpointOp(f.ctx, admin, endpoint.id, { enabled: false });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'disabled by a user' });
    expect(await updateWebhookEndpointOp(f.ctx, admin, endpoint.id, { enabled: true })).toMatchObject({
      enabled: true,
      disabledReason: null,
    });
    await deleteWebhookEndpointOp(f.ctx, admin, endpoint.id);
    expect((await listWebhookEndpointsOp(f.ctx, admin)).endpoints).toEqual([]);
  });

  it('answers 503 when webhooks are off', async () => {
    const admin = await f.member('admin');
    const saved = f.ctx.webhooks;
    f.ctx.webhooks = undefined;
    try {
      const err = await refusal(listWebhookEndpointsOp(f.ctx, admin));
      expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    } finally {
      f.ctx.webhooks = saved;
    }
  });
});
