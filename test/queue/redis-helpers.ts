/** Redis for the queue tests: a fresh namespace per file on the shared server, or a private server to stop and start. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

export const SHARED_REDIS_URL = 'redis://127.0.0.1:6379';

/** A namespace no other test file uses. */
export function freshPrefix(): string {
  return `t-${randomBytes(6).toString('hex')}`;
}

/** Deletes every key under `base:` on an open connection. */
export async function deleteKeys(redis: Redis, base: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${base}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

/** Deletes every key of `prefix` (BullMQ's and ours). */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    await deleteKeys(redis, prefix);
  } finally {
    redis.disconnect();
  }
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A private, memory-only redis-server on `port`, resolved once it answers PING. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    for (let i = 0; i < 100; i++) {
      try {
        if (probe.status !== 'ready') await probe.connect();
        await probe.ping();
        return child;
      } catch {
        probe.disconnect();
        await sleep(50);
      }
    }
  } finally {
    probe.disconnect();
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${port}`);
}

export async function stopRedisServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}
