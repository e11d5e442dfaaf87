/**
 * The sender's keep-alive pools and the rule that bounds them (docs/decisions.md "Webhooks"): a
 * connection is reused only for an attempt whose own resolution returned the address it was
 * opened to, and every attempt resolves and checks the name again (DNS rebinding).
 */
import type { LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookSender } from '../../shared/webhooks/send.js';
import { startReceiver, type Receiver } from './receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

const headers = { 'webhook-id': 'msg_pool', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,AAAA' };

/** A resolver whose answer for every name is whatever `answer.address` holds at the time of the call; counts its calls. */
function switchable(address: string) {
  const answer = { address, calls: 0 };
  const lookup: LookupFunction = (_hostname, options, callback) => {
    answer.calls++;
    if (options.all === true) callback(null, [{ address: answer.address, family: 4 }]);
    else callback(null, answer.address, 4);
  };
  return { answer, lookup };
}

const at = (path: string) => rx.received.filter((r) => r.path === path);

describe('webhook sender connections', () => {
  it('reuses kept-alive connections for successive attempts to the same checked address, resolving the name at each', async () => {
    const { answer, lookup } = switchable('127.0.0.1');
    const sender = new WebhookSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.1'], lookup });
    try {
      for (let i = 0; i < 6; i++)
        expect(await sender.send(`http://hook.test:${rx.port}/reuse`, headers, '{}')).toMatchObject({ status: 200 });
      const ports = at('/reuse').map((r) => r.remotePort);
      expect(ports).toHaveLength(6);
      // undici's pool may open a second connection when the next request comes as the first
      // answer ends (the connection is not yet marked free); never one per attempt.
      expect(new Set(ports).size).toBeLessThanOrEqual(2);
      expect(answer.calls).toBe(6);
      expect(sender.poolCount).toBe(1);
    } finally {
      await sender.close();
    }
  });

  it('refuses the next attempt when the name re-points at a denied address, though a connection to the old one is open', async () => {
    const { answer, lookup } = switchable('127.0.0.1');
    const sender = new WebhookSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.1'], lookup });
    try {
      expect(await sender.send(`http://hook.test:${rx.port}/rebind`, headers, '{}')).toMatchObject({ status: 200 });
      answer.address = '127.0.0.2';
      const refused = await sender.send(`http://hook.test:${rx.port}/rebind`, headers, '{}');
      expect(refused).toMatchObject({ error: 'ssrf:loopback' });
      expect(refused.status).toBeUndefined();
      expect(at('/rebind')).toHaveLength(1);
    } finally {
      await sender.close();
    }
  });

  it('dials the newly resolved address when the answer changes to another allowed one, not the pooled connection', async () => {
    const { answer, lookup } = switchable('127.0.0.1');
    // Both allowed; the receiver listens on 127.0.0.1 only, so a dial to 127.0.0.2 is refused by the kernel.
    const sender = new WebhookSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.0/8'], lookup });
    try {
      expect(await sender.send(`http://hook.test:${rx.port}/moved-address`, headers, '{}')).toMatchObject({ status: 200 });
      answer.address = '127.0.0.2';
      expect(await sender.send(`http://hook.test:${rx.port}/moved-address`, headers, '{}')).toMatchObject({ error: 'ECONNREFUSED' });
      expect(at('/moved-address')).toHaveLength(1);
      expect(sender.poolCount).toBe(2);
      // Back to the first address: its pool, and its connection, serve again.
      answer.address = '127.0.0.1';
      expect(await sender.send(`http://hook.test:${rx.port}/moved-address`, headers, '{}')).toMatchObject({ status: 200 });
      const ports = at('/moved-address').map((r) => r.remotePort);
      expect(ports).toHaveLength(2);
      expect(ports[1]).toBe(ports[0]);
    } finally {
      await sender.close();
    }
  });

  it('closes a connection whose answer was cut short at the excerpt bound, and keeps the excerpt', async () => {
    rx.script('/long', { status: 200, body: 'x'.repeat(64 * 1024) });
    const sender = new WebhookSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.1'] });
    try {
      const first = await sender.send(rx.url('/long'), headers, '{}');
      expect(first).toMatchObject({ status: 200 });
      expect(first.bodyExcerpt).toBe('x'.repeat(1024));
      expect(await sender.send(rx.url('/long'), headers, '{}')).toMatchObject({ status: 200, bodyExcerpt: 'ok' });
      const ports = at('/long').map((r) => r.remotePort);
      expect(ports).toHaveLength(2);
      expect(ports[1]).not.toBe(ports[0]);
    } finally {
      await sender.close();
    }
  });
});
