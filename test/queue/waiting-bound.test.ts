/** The cached QUEUE_MAX_WAITING check: how often it reads the count, and what it answers. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.js';
import { ServiceError } from '../../shared/errors.js';
import { DEFAULT_MAX_WAITING, WaitingBound } from '../../shared/queue/waiting-bound.js';

function harness(maxWaiting: number) {
  let now = 1_000_000;
  let waiting = 0;
  const reads: string[] = [];
  const pending: Array<() => void> = [];
  let holdReads = false;
  const bound = new WaitingBound<'hash' | 'batch'>({
    maxWaiting,
    now: () => now,
    count: async (queue) => {
      reads.push(queue);
      if (holdReads) await new Promise<void>((resolve) => pending.push(resolve));
      if (waiting < 0) throw new Error('redis is away');
      return waiting;
    },
  });
  return {
    bound,
    reads,
    advance: (ms: number) => (now += ms),
    setWaiting: (n: number) => (waiting = n),
    hold: (on: boolean) => (holdReads = on),
    releaseReads: () => pending.splice(0).forEach((resolve) => resolve()),
  };
}

describe('WaitingBound', () => {
  it('reads the count of a queue at most once per 250 ms, and each queue on its own', async () => {
    const h = harness(3);
    for (let i = 0; i < 10; i++) await h.bound.admit('hash');
    expect(h.reads).toEqual(['hash']);
    h.advance(249);
    await h.bound.admit('hash');
    await h.bound.admit('batch');
    expect(h.reads).toEqual(['hash', 'batch']);
    h.advance(1);
    await h.bound.admit('hash');
    expect(h.reads).toEqual(['hash', 'batch', 'hash']);
  });

  it('submits that arrive while the count is being read share that read', async () => {
    const h = harness(3);
    h.hold(true);
    const admits = Array.from({ length: 5 }, () => h.bound.admit('hash'));
    expect(h.reads).toEqual(['hash']);
    h.releaseReads();
    await Promise.all(admits);
    expect(h.reads).toEqual(['hash']);
  });

  it('refuses at the bound with 503, Retry-After 5 and the queue named, until a fresh read shows room', async () => {
    const h = harness(3);
    h.setWaiting(3);
    const refused = await h.bound.admit('hash').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      retryAfter: 5,
      details: 'the hash queue is full; retry later',
    });
    h.setWaiting(2);
    await expect(h.bound.admit('hash')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    h.advance(250);
    await expect(h.bound.admit('hash')).resolves.toBeUndefined();
  });

  it('a failed read fails the submit and is tried again by the next one', async () => {
    const h = harness(3);
    h.setWaiting(-1);
    await expect(h.bound.admit('hash')).rejects.toThrow('redis is away');
    h.setWaiting(0);
    await expect(h.bound.admit('hash')).resolves.toBeUndefined();
    expect(h.reads).toEqual(['hash', 'hash']);
  });

  it('0 never reads and never refuses; a negative or fractional bound is refused, naming it', async () => {
    const h = harness(0);
    h.setWaiting(1_000_000);
    await expect(h.bound.admit('hash')).resolves.toBeUndefined();
    expect(h.reads).toEqual([]);
    expect(() => harness(-1)).toThrow(new RangeError('maxWaiting must be a non-negative integer'));
    expect(() => harness(1.5)).toThrow(new RangeError('maxWaiting must be a non-negative integer'));
  });

  it('QUEUE_MAX_WAITING defaults to 10,000 and is validated, naming it', () => {
    expect(DEFAULT_MAX_WAITING).toBe(10_000);
    expect(loadConfig({}).QUEUE_MAX_WAITING).toBe(10_000);
    expect(loadConfig({ QUEUE_MAX_WAITING: '0' }).QUEUE_MAX_WAITING).toBe(0);
    for (const value of ['-1', '2.5', 'many']) {
      expect(() => loadConfig({ QUEUE_MAX_WAITING: value })).toThrow(/^Invalid configuration: QUEUE_MAX_WAITING: /);
    }
  });
});
