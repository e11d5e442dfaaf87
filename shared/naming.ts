/**
 * Every Redis key, queue name and object-store key is built here, so a reviewer sees the whole
 * key space in one place and two modules can never collide.
 */
import { randomUUID } from 'node:crypto';
import type { QueueName } from './jobs/contracts.js';

export const KEY_PREFIX = 'sha224d';

export function bullQueueName(queue: QueueName): string {
  return `${KEY_PREFIX}-${queue}`;
}

/** Object key of an uploaded body. The account id is a prefix so lifecycle rules can target it. */
export function uploadBlobKey(accountId: string): string {
  return `uploads/${accountId}/${randomUUID()}`;
}

export function idempotencyRedisKey(accountId: string, key: string): string {
  return `${KEY_PREFIX}:idem:${accountId}:${key}`;
}

export function jobOwnerRedisKey(jobId: string): string {
  return `${KEY_PREFIX}:job:${jobId}`;
}

export function rateLimitKeyPrefix(scope: string): string {
  return `${KEY_PREFIX}:rl:${scope}`;
}

export function wsConnectionsRedisKey(accountId: string): string {
  return `${KEY_PREFIX}:ws:${accountId}`;
}

export const SOCKET_IO_REDIS_CHANNEL = `${KEY_PREFIX}-socket.io`;
export const JOB_EVENTS_CHANNEL = `${KEY_PREFIX}:job-events`;
