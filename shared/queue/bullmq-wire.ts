/**
 * What the BullMQ producer and workers agree on: job data, the job-finished message and channel,
 * the failed-job error encoding, and how BullMQ states read as JobStates.
 */
import type { Job } from 'bullmq';
import type { JobKind, JobPayloads, JobResults } from '../jobs/contracts.js';
import { BULL_PREFIX, JOB_EVENTS_CHANNEL, namespacedRedisKey } from '../naming.js';
import type { JobErrorInfo, JobState } from './types.js';

/** What a BullMQ job carries: small, JSON, never bytes (blobs travel as references). */
export interface BullJobData<K extends JobKind = JobKind> {
  kind: K;
  accountId: string;
  payload: JobPayloads[K];
}

export type BullJob = Job<BullJobData, JobResults[JobKind], JobKind>;

/** Published by workers on the job-events channel when a job completes or finally fails. */
export interface JobFinishedMessage {
  id: string;
  state: 'completed' | 'failed';
}

export function jobEventsChannel(namespace: string | undefined): string {
  return namespacedRedisKey(namespace, JOB_EVENTS_CHANNEL);
}

/** BullMQ's key prefix for a namespace (undefined: BullMQ's default `bull`). */
export function bullPrefixOf(namespace: string | undefined): string {
  return namespace ?? BULL_PREFIX;
}

/** A failed job's `failedReason` is the JSON of its JobErrorInfo; anything else reads as INTERNAL_ERROR. */
export function parseFailedReason(reason: string | undefined): JobErrorInfo {
  try {
    const value: unknown = JSON.parse(reason ?? '');
    if (typeof value === 'object' && value !== null) {
      const { code, message, details } = value as Record<string, unknown>;
      if (typeof code === 'string' && typeof message === 'string') {
        return typeof details === 'string' ? { code, message, details } : { code, message };
      }
    }
  } catch {
    // not ours: e.g. "job stalled more than allowable limit"
  }
  return { code: 'INTERNAL_ERROR', message: 'Internal error' };
}

export function mapState(state: string): JobState {
  switch (state) {
    case 'active':
      return 'active';
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    default:
      // waiting, delayed (incl. waiting for a retry), prioritized, waiting-children, unknown
      return 'queued';
  }
}
