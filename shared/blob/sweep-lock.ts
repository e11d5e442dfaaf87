/**
 * Turn-taking for the workers' blob sweeps: the first to SET NX the lock key sweeps, the others
 * skip until it expires. The lock is never released, only left to expire, so it bounds the
 * sweeps to about one per `holdMs` however many workers there are. Nothing depends on it for
 * correctness (a sweep is idempotent); it saves S3 listings.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/client-factory.js';

export function redisSweepClaim(redis: RedisClient, key: string, holdMs: number): () => Promise<boolean> {
  if (!Number.isInteger(holdMs) || holdMs < 1) throw new RangeError('holdMs must be a positive integer');
  const holder = randomUUID();
  return async () => (await redis.set(key, holder, 'PX', holdMs, 'NX')) === 'OK';
}
