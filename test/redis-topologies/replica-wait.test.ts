/**
 * The WAIT after a job add blocks its connection (shared/redis/replica-wait.ts): on a primary with
 * no replica (the machine's Redis, like a promoted replica after a failover) the adds of one
 * connection must not queue one WAIT behind another.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { PROBE_INTERVAL_MS, replicaWaiter, waitGate } from '../../shared/redis/replica-wait.js';
import { SHARED_REDIS_URL } from '../queue/redis-helpers.js';

describe('replicaWaiter on a primary without replicas', () => {
  const redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: 1 });
  afterAll(() => redis.disconnect());

  it('five concurrent adds share one 300 ms WAIT, and later adds send none while no replica acknowledges', async () => {
    const waiter = replicaWaiter(redis, 'slot', 300);
    const started = Date.now();
    const acknowledged = await Promise.all(Array.from({ length: 5 }, () => waiter()));
    const elapsed = Date.now() - started;
    expect(acknowledged).toEqual([0, 0, 0, 0, 0]);
    // Unserialized, the five WAITs would hold the connection 1.5 s.
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(900);

    const again = Date.now();
    expect(await waiter()).toBe(0);
    expect(await redis.ping()).toBe('PONG');
    expect(Date.now() - again).toBeLessThan(200);
  });
});

describe('waitGate', () => {
  it('one WAIT in flight; those who wrote meanwhile share the next one', async () => {
    const sent: Array<(n: number) => void> = [];
    const gate = waitGate(() => new Promise<number>((resolve) => sent.push(resolve)));
    const first = gate();
    const others = [gate(), gate(), gate()];
    expect(sent).toHaveLength(1);
    sent[0]!(1);
    expect(await first).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(2);
    sent[1]!(1);
    expect(await Promise.all(others)).toEqual([1, 1, 1]);
    // Replicas answer: every add waits again.
    const later = gate();
    expect(sent).toHaveLength(3);
    sent[2]!(1);
    expect(await later).toBe(1);
  });

  it('once no replica acknowledged, adds answer 0 at once until a probe every PROBE_INTERVAL_MS finds one back', async () => {
    let clock = 1_000_000;
    let replicas = 0;
    let calls = 0;
    const gate = waitGate(
      () => {
        calls++;
        return Promise.resolve(replicas);
      },
      () => clock,
    );
    expect(await gate()).toBe(0);
    expect([await gate(), await gate(), calls]).toEqual([0, 0, 1]);
    clock += PROBE_INTERVAL_MS - 1;
    expect([await gate(), calls]).toEqual([0, 1]);
    clock += 1;
    replicas = 1;
    expect([await gate(), calls]).toEqual([1, 2]);
    expect([await gate(), calls]).toEqual([1, 3]);
  });

  it('a WAIT that fails (connection lost) fails its add and does not stop the next', async () => {
    let fail = true;
    const gate = waitGate(() => (fail ? Promise.reject(new Error('Connection is closed.')) : Promise.resolve(1)));
    await expect(gate()).rejects.toThrow('Connection is closed.');
    fail = false;
    expect(await gate()).toBe(1);
  });
});
