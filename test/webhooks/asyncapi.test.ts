/**
 * /asyncapi.json documents the webhooks: a message for every event type the code emits, the three
 * Standard Webhooks headers, and schemas that what the delivery code really sends validates against
 * (ajv, a second implementation beside zod): a completed batch, a completed hash, a failed job and
 * the test event, each as received by a loopback receiver. The examples validate too, and their
 * signatures are the ones the `standardwebhooks` package computes.
 */
import { createHash } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_SECRET } from '../../api/docs/webhook-messages.js';
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/events.js';
import { getJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { waitFor } from '../helpers/wait.js';
import { startWebhookFixture, type WebhookFixture } from './fixture.js';
import { startReceiver, type Receiver } from './receiver.js';

interface Message {
  name: string;
  headers: Record<string, unknown> & { required?: string[] };
  payload: Record<string, unknown>;
  examples: Array<{ headers: Record<string, string>; payload: unknown }>;
}

interface Doc {
  servers: Record<string, { host: string; protocol: string }>;
  channels: Record<string, { address: string | null; messages: Record<string, { $ref: string }> }>;
  operations: Record<string, { action: string; channel: { $ref: string } }>;
  components: { messages: Record<string, Message> };
}

// date-time checked independently of the schema's own pattern: exactly what toISOString writes.
const isoMillis = (s: string): boolean => !Number.isNaN(Date.parse(s)) && new Date(s).toISOString() === s;
const ajv = new Ajv({ strict: false, allErrors: true, formats: { 'date-time': isoMillis } });
let server: TestServer;
let doc: Doc;
/** Event type → its documented message in the webhooks channel. */
const byType = new Map<string, { message: Message; payload: ValidateFunction; headers: ValidateFunction }>();
let fx: WebhookFixture;
let rx: Receiver;

beforeAll(async () => {
  server = await startTestServer();
  const res = await getJson(`${server.url}/asyncapi.json`);
  expect(res.status).toBe(200);
  doc = res.body as Doc;
  for (const { $ref } of Object.values(doc.channels.webhooks?.messages ?? {})) {
    const message = doc.components.messages[$ref.replace('#/components/messages/', '')]!;
    byType.set(message.name, { message, payload: ajv.compile(message.payload), headers: ajv.compile(message.headers) });
  }
  fx = await startWebhookFixture();
  rx = await startReceiver();
});

afterAll(async () => {
  await fx?.close();
  await rx?.close();
  await server?.close();
});

function expectValid(validate: ValidateFunction, value: unknown, what: string): void {
  expect(validate(value), `${what}: ${JSON.stringify(validate.errors)} for ${JSON.stringify(value)}`).toBe(true);
}

describe('webhooks in /asyncapi.json', () => {
  it('has a message for every event type the code emits, sent on the webhooks channel with the Standard Webhooks headers', () => {
    expect([...byType.keys()].sort()).toEqual([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE].sort());
    expect(doc.channels.webhooks!.address).toBeNull();
    expect(doc.servers.webhookReceiver).toMatchObject({ protocol: 'https' });
    expect(Object.values(doc.operations).filter((o) => o.channel.$ref === '#/channels/webhooks')).toEqual([
      expect.objectContaining({ action: 'send' }),
    ]);
    for (const { message } of byType.values()) {
      expect(message.headers.required).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      expect(Object.keys(message.headers.properties as object)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    }
  });

  it('the schemas are strict: a payload with a wrong type, status or an extra field is refused', () => {
    const completed = byType.get('job.completed')!.payload;
    const ok = {
      type: 'job.completed',
      timestamp: '2026-11-21T12:00:00.000Z',
      data: { job_id: 'j', kind: 'batch', status: 'completed', count: 2 },
    };
    expectValid(completed, ok, 'job.completed');
    expect(completed({ ...ok, type: 'job.failed' })).toBe(false);
    expect(completed({ ...ok, data: { ...ok.data, status: 'failed' } })).toBe(false);
    expect(completed({ ...ok, data: { ...ok.data, extra: 1 } })).toBe(false);
    expect(completed({ ...ok, timestamp: 'yesterday' })).toBe(false);
    expect(byType.get('job.failed')!.payload({ ...ok, type: 'job.failed', data: { ...ok.data, status: 'failed' } })).toBe(false);
    expect(byType.get('job.completed')!.headers({ 'webhook-id': 'msg_x', 'webhook-timestamp': '1', 'webhook-signature': 'v1,AA==' })).toBe(
      false,
    );
  });

  it('every example validates, and its signature is what standardwebhooks computes with the example secret', () => {
    for (const [type, { message, payload, headers }] of byType) {
      expect(message.examples.length).toBeGreaterThan(0);
      for (const ex of message.examples) {
        expectValid(payload, ex.payload, `${type} example`);
        expectValid(headers, ex.headers, `${type} example headers`);
        const at = new Date(Number(ex.headers['webhook-timestamp']) * 1000);
        const expected = new Webhook(EXAMPLE_SECRET).sign(ex.headers['webhook-id']!, at, JSON.stringify(ex.payload));
        expect(ex.headers['webhook-signature']).toBe(expected);
      }
    }
  });

  it('what the delivery code sends validates against the documented message of its type', async () => {
    const { endpoint, secret } = await fx.webhooks.service.createEndpoint({ accountId: fx.accountId, url: rx.url('/doc') });
    const job = { accountId: fx.accountId, webhook: {} };
    await fx.queue.submit('batch', { items: [{ id: 'a', data: 'abc' }], encoding: 'utf8', parallel: false, output: 'hex' }, job);
    await fx.queue.submit('hash', { data: 'abc', encoding: 'utf8' }, job);
    await fx.queue.submit('hash', { data: '%%%', encoding: 'base64' }, job);
    await fx.webhooks.service.sendTest(endpoint);
    const got = await waitFor(() => rx.received.length >= 4 && rx.received, { what: 'four deliveries' });
    const seen: string[] = [];
    for (const req of got) {
      const event = new Webhook(secret).verify(req.body, req.headers) as { type: string; data: Record<string, unknown> };
      const documented = byType.get(event.type);
      expect(documented, `no message for ${event.type}`).toBeDefined();
      expectValid(documented!.payload, JSON.parse(req.body), `${event.type} as sent`);
      expectValid(documented!.headers, req.headers, `${event.type} headers as sent`);
      seen.push(event.type === 'job.completed' ? `${event.type}:${String(event.data.kind)}` : event.type);
      if (event.data.kind === 'hash' && event.type === 'job.completed')
        expect(event.data.hash).toBe(createHash('sha224').update('abc').digest('hex'));
    }
    expect(seen.sort()).toEqual(['job.completed:batch', 'job.completed:hash', 'job.failed', 'webhook.test']);
  });
});
