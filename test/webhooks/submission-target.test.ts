/**
 * `?webhook_endpoint_id=` on async /v2 submissions (docs/webhooks.md "Naming an endpoint at
 * submission"), over real HTTP in embedded mode: the named endpoint alone receives the signed
 * event, even one whose filter would not take it, for a JSON batch and a raw stream alike; an
 * unknown id, another account's, a disabled one, or the parameter without `async=true` is refused
 * with 400 INVALID_INPUT before anything is queued.
 */
import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookService } from '../../shared/webhooks/service.js';
import { postJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, type Receiver } from './receiver.js';

let server: TestServer;
let service: WebhookService;
let rx: Receiver;

beforeAll(async () => {
  rx = await startReceiver();
  server = await startTestServer({
    webhooks: true,
    env: { WEBHOOK_ALLOW_CIDRS: '127.0.0.1', WEBHOOK_POLL_MS: '20', WEBHOOK_RETRY_SCHEDULE: '0' },
  });
  service = server.webhooks!;
});

afterAll(async () => {
  await server?.close();
  await rx?.close();
});

const auth = (): Record<string, string> => ({ 'X-API-Key': server.keys.production });
const received = (path: string) => rx.received.filter((r) => r.path === path);

describe('naming one webhook endpoint at submission', () => {
  it('sends the job events to the named endpoint alone, for JSON and raw bodies', async () => {
    const all = await service.createEndpoint({ accountId: server.accountId, url: rx.url('/all') });
    // Its filter takes only failures: naming it overrides the filter.
    const named = await service.createEndpoint({ accountId: server.accountId, url: rx.url('/named'), eventTypes: ['job.failed'] });

    const batch = await postJson(
      `${server.url}/v2/batch?async=true&webhook_endpoint_id=${named.endpoint.id}`,
      { items: [{ id: 'a', data: 'abc' }] },
      auth(),
    );
    expect(batch.status).toBe(202);
    const [first] = await waitFor(() => received('/named').length === 1 && received('/named'));
    expect(new Webhook(named.secret).verify(first!.body, first!.headers)).toMatchObject({
      type: 'job.completed',
      data: { job_id: batch.body.job_id, kind: 'batch', status: 'completed' },
    });

    const bytes = Buffer.from('raw bytes for a named endpoint');
    const stream = await fetch(`${server.url}/v2/stream?async=true&webhook_endpoint_id=${named.endpoint.id}`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(stream.status).toBe(202);
    const { job_id: streamJob } = (await stream.json()) as { job_id: string };
    const [, second] = await waitFor(() => received('/named').length === 2 && received('/named'));
    const event = new Webhook(named.secret).verify(second!.body, second!.headers) as { data: { job_id: string; hash?: string } };
    expect(event).toMatchObject({ type: 'job.completed', data: { job_id: streamJob, kind: 'stream' } });
    expect(JSON.stringify(event)).toContain(createHash('sha224').update(bytes).digest('hex'));

    // A job naming none goes to the filter-matching endpoint; the named jobs never reached it.
    const plain = await postJson(`${server.url}/v2/batch?async=true`, { items: [{ id: 'b', data: 'def' }] }, auth());
    expect(plain.status).toBe(202);
    const [only] = await waitFor(() => received('/all').length === 1 && received('/all'));
    expect(new Webhook(all.secret).verify(only!.body, only!.headers)).toMatchObject({ data: { job_id: plain.body.job_id } });
    const toAll = await service.store.deliveries({ endpointId: all.endpoint.id, limit: 10 });
    expect(toAll.map((d) => d.eventKey)).toEqual([`job.completed:${plain.body.job_id}`]);
  });

  it('refuses an unknown, foreign or disabled endpoint, and the parameter without async, with 400 INVALID_INPUT', async () => {
    const other = await server.store.createAccount({ name: 'other', plan: 'enterprise' });
    const foreign = await service.createEndpoint({ accountId: other.id, url: rx.url('/foreign') });
    const off = await service.createEndpoint({ accountId: server.accountId, url: rx.url('/off') });
    await service.store.updateEndpoint(off.endpoint.id, { enabled: false });
    const mine = await service.createEndpoint({ accountId: server.accountId, url: rx.url('/mine') });
    const cases: Array<[string, string]> = [
      [`async=true&webhook_endpoint_id=whe_unknown`, 'names no webhook endpoint of this account'],
      [`async=true&webhook_endpoint_id=${foreign.endpoint.id}`, 'names no webhook endpoint of this account'],
      [`async=true&webhook_endpoint_id=${off.endpoint.id}`, 'disabled'],
      [`webhook_endpoint_id=${mine.endpoint.id}`, 'only with async=true'],
    ];
    for (const [query, details] of cases) {
      const batch = await postJson(`${server.url}/v2/batch?${query}`, { items: [{ id: 'a', data: 'abc' }] }, auth());
      expect(batch.status, query).toBe(400);
      expect(batch.body.error.code).toBe('INVALID_INPUT');
      expect(JSON.stringify(batch.body.error)).toContain(details);
      const stream = await fetch(`${server.url}/v2/stream?${query}`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/octet-stream' },
        body: 'x',
      });
      expect(stream.status, query).toBe(400);
      expect(((await stream.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
    }
    // Nothing was queued, so nothing was delivered to any of them.
    for (const e of [foreign, off, mine]) expect(await service.store.deliveries({ endpointId: e.endpoint.id, limit: 10 })).toEqual([]);
  });
});
