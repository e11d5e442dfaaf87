/** Set B status `status`: operational while store, queue and blob store answer; degraded otherwise. */
import { describe, expect, it } from 'vitest';
import { serviceStatus } from '../../api/operations/service-status.js';

const ok = { ping: () => Promise.resolve() };
const down = { ping: () => Promise.reject(new Error('connection refused')) };
const hung = { ping: () => new Promise<void>(() => undefined) };
const throws = {
  ping: (): Promise<void> => {
    throw new Error('sync failure');
  },
};

type Deps = Parameters<typeof serviceStatus>[0];
const deps = (store: object, queue: object, blobs: object) => ({ store, queue, blobs }) as unknown as Deps;

describe('serviceStatus', () => {
  it('is operational when every dependency answers', async () => {
    expect(await serviceStatus(deps(ok, ok, ok))).toBe('operational');
  });

  it.each([
    ['the store is down', deps(down, ok, ok)],
    ['the queue is down', deps(ok, down, ok)],
    ['the blob store throws', deps(ok, ok, throws)],
  ])('is degraded when %s', async (_name, d) => {
    expect(await serviceStatus(d)).toBe('degraded');
  });

  it('is degraded, within the timeout, when a dependency does not answer', async () => {
    const started = Date.now();
    expect(await serviceStatus(deps(ok, hung, ok), 100)).toBe('degraded');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
