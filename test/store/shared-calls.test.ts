import { describe, expect, it } from 'vitest';
import { SharedCalls } from '../../shared/shared-calls.js';

/** A call the test settles by hand, counting how often it was started. */
function controlledCall<T>() {
  let started = 0;
  let settle: { resolve: (value: T) => void; reject: (err: Error) => void } | undefined;
  const call = () => {
    started++;
    return new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  };
  return { call, started: () => started, settle: () => settle! };
}

describe('SharedCalls', () => {
  it('concurrent callers of one key share one call and its answer', async () => {
    const calls = new SharedCalls<number>();
    const c = controlledCall<number>();
    const answers = Promise.all([calls.run('k', c.call), calls.run('k', c.call), calls.run('k', c.call)]);
    expect(c.started()).toBe(1);
    c.settle().resolve(7);
    expect(await answers).toEqual([7, 7, 7]);
  });

  it('different keys get their own calls', async () => {
    const calls = new SharedCalls<string>();
    const a = controlledCall<string>();
    const b = controlledCall<string>();
    const answers = Promise.all([calls.run('a', a.call), calls.run('b', b.call)]);
    a.settle().resolve('A');
    b.settle().resolve('B');
    expect(await answers).toEqual(['A', 'B']);
    expect([a.started(), b.started()]).toEqual([1, 1]);
  });

  it('a settled call is forgotten, a failed one too: the next caller asks afresh', async () => {
    const calls = new SharedCalls<number>();
    const c = controlledCall<number>();
    const first = calls.run('k', c.call);
    c.settle().reject(new Error('pool refused'));
    await expect(first).rejects.toThrow('pool refused');
    const second = calls.run('k', c.call);
    expect(c.started()).toBe(2);
    c.settle().resolve(3);
    expect(await second).toBe(3);
    const third = calls.run('k', c.call);
    expect(c.started()).toBe(3);
    c.settle().resolve(4);
    expect(await third).toBe(4);
  });

  it('after clear, a new caller starts a new call while the earlier caller keeps its answer', async () => {
    const calls = new SharedCalls<number>();
    const c = controlledCall<number>();
    const before = calls.run('k', c.call);
    const firstSettle = c.settle();
    calls.clear();
    const after = calls.run('k', c.call);
    expect(c.started()).toBe(2);
    c.settle().resolve(2);
    firstSettle.resolve(1);
    expect([await before, await after]).toEqual([1, 2]);
  });
});
