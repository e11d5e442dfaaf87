/** Redis for the queue tests: a fresh namespace per file on the shared server, or a private server to stop and start. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pickUnusedPort } from '../helpers/ports.js';
import { waitFor } from '../helpers/wait.js';

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

/** The port answered, but not with the redis-server just started there. */
class PortTakenError extends Error {}

export interface PrivateRedis {
  child: ChildProcess;
  port: number;
  url: string;
}

/**
 * A private, memory-only redis-server (plus `extraArgs`) on a port picked outside the kernel's
 * ephemeral range (test/helpers/ports.ts); if another process took that port first, another is
 * picked.
 */
export async function startPrivateRedis(extraArgs: string[] = []): Promise<PrivateRedis> {
  for (let attempt = 1; ; attempt++) {
    const port = await pickUnusedPort();
    try {
      return { child: await startRedisServer(port, extraArgs), port, url: `redis://127.0.0.1:${port}` };
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt === 5) throw err;
    }
  }
}

/**
 * A private, memory-only redis-server on `port` (plus `extraArgs`), resolved once it answers
 * PING and its INFO names this child's pid: the server answering is ours, not one that already
 * held the port. A restart after stopRedisServer keeps the port, so clients keep their URL.
 */
export async function startRedisServer(port: number, extraArgs: string[] = []): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    const pid = await waitFor(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) return -1;
        try {
          if (probe.status !== 'ready') await probe.connect();
          return Number(/^process_id:(\d+)/m.exec(await probe.info('server'))?.[1]);
        } catch {
          probe.disconnect();
          return 0;
        }
      },
      { timeoutMs: 10_000, intervalMs: 50, what: `redis-server on port ${port}` },
    );
    if (pid === child.pid) return child;
    throw new PortTakenError(
      `port ${port} is taken by ${pid === -1 ? 'another process (redis-server exited)' : `redis-server pid ${pid}`}`,
    );
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    throw err;
  } finally {
    probe.disconnect();
  }
}

export async function stopRedisServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}
