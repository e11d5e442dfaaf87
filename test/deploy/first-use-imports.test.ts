/**
 * Packages an API node opens at start but imports on first use (docs/decisions.md "Speed"): the
 * bulk producer's BullMQ, socket.io's Redis adapter and hash-wasm. test/deploy/bundle-imports.test.ts
 * walks the bundle's static imports; these are dynamic imports that an engine opened at start
 * could call too early, so each is counted here through a mock that passes the real module on.
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../shared/log.js';
import { BullMqChunkQueue } from '../../shared/bulk/bullmq-chunks.js';
import { createRedisAdapter } from '../../api/realtime/socketio-redis-adapter.js';
import { freshHash } from '../../shared/uploads/hash-state.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';

const imported = vi.hoisted(() => ({ bullmq: 0, redisAdapter: 0, hashWasm: 0 }));

vi.mock('bullmq', async (real: () => Promise<object>) => {
  imported.bullmq += 1;
  return { ...(await real()) };
});
vi.mock('@socket.io/redis-adapter', async (real: () => Promise<object>) => {
  imported.redisAdapter += 1;
  return { ...(await real()) };
});
vi.mock('hash-wasm', async (real: () => Promise<object>) => {
  imported.hashWasm += 1;
  return { ...(await real()) };
});

const logger = createLogger('silent');
const prefix = freshPrefix();

afterAll(async () => {
  await dropPrefix(SHARED_REDIS_URL, prefix);
});

describe('imported on first use, not when an API node opens its engines', () => {
  it('the bulk producer: opened and closed without a chunk, BullMQ is never imported', async () => {
    const chunks = new BullMqChunkQueue({ connection: SHARED_REDIS_URL, prefix, logger, attempts: 1, backoffMs: 10, retentionMs: 60_000 });
    await chunks.close();
    expect(imported.bullmq).toBe(0);
  });

  it("socket.io's Redis adapter: its connections open at start, its package with the first factory() call", async () => {
    const adapter = createRedisAdapter(SHARED_REDIS_URL, { QUEUE_PREFIX: prefix }, logger);
    try {
      expect(imported.redisAdapter).toBe(0);
      const factory = await adapter.factory();
      expect(typeof factory).toBe('function');
      expect(imported.redisAdapter).toBe(1);
    } finally {
      await adapter.close();
    }
  });

  it('hash-wasm: imported by the first resumable hash, whose digest is SHA-224', async () => {
    expect(imported.hashWasm).toBe(0);
    const hash = await freshHash();
    hash.update(Buffer.from('abc'));
    expect(hash.digestHex()).toBe(createHash('sha224').update('abc').digest('hex'));
    expect(imported.hashWasm).toBe(1);
  });
});
