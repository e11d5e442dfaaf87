/**
 * What the BullMQ producer and workers agree on: job data, the job-finished message and the
 * channel it goes to, the failed-job error encoding, and how BullMQ states read as JobStates.
 */
import type { Job } from 'bullmq';
import type { JobKind, JobPayloads, JobResults } from '../jobs/contracts.js';
import { BULL_PREFIX, JOB_EVENTS_CHANNEL, namespacedRedisKey, nodeJobEventsChannel } from '../naming.js';
import type { TraceContext } from '../trace.js';
import type { JobErrorInfo, JobState, WebhookTarget } from './types.js';

/** What a BullMQ job carries: small, JSON, never bytes (blobs travel as references). */
export interface BullJobData<K extends JobKind = JobKind> {
  kind: K;
  accountId: string;
  payload: JobPayloads[K];
  /** The request that enqueued the job (shared/trace.ts): the worker's log lines for it carry these. */
  trace?: TraceContext;
  /**
   * The submitting API node's channel (nodeEventsChannel), set by `run`: the outcome goes there
   * only, with the result, so no other node hears it and the waiter reads nothing back. Absent
   * (async jobs, jobs queued before it existed): an id-only message on the shared channel.
   */
  replyTo?: string;
  /** Async jobs: announced to webhooks when finished (workers/bullmq/finisher.ts). */
  webhook?: WebhookTarget;
}

export type BullJob = Job<BullJobData, JobResults[JobKind], JobKind>;

/**
 * Synchronous small jobs (inline data, no Idempotency-Key) an API node received in one event-loop
 * turn travel as one BullMQ job named BUNDLE_JOB_NAME (bullmq-queue.ts): the worker runs each item
 * with the kind's handler and answers every item's outcome in one message. docs/decisions.md
 * "Jobs and modes".
 */
export const BUNDLE_JOB_NAME = 'bundle';
export const BUNDLE_KINDS = ['hash', 'hmac', 'verify'] as const;
export type BundleKind = (typeof BUNDLE_KINDS)[number];

export function isBundleKind(kind: JobKind): kind is BundleKind {
  return kind === 'hash' || kind === 'hmac' || kind === 'verify';
}

export interface BundleItem<K extends BundleKind = BundleKind> {
  kind: K;
  accountId: string;
  payload: JobPayloads[K];
  trace?: TraceContext;
}

/** An item's outcome as a bundle's return value carries it; null: not final yet (retried). */
export type BundleOutcome = { result: JobResults[BundleKind] } | { error: JobErrorInfo };

export interface BullBundleData {
  bundle: BundleItem[];
  /** The submitting node's channel, as BullJobData's. */
  replyTo?: string;
  /** Items answered by an attempt that was then retried for its other items: never run again. */
  answered?: Record<string, BundleOutcome>;
}

/** Ordinary jobs and bundles, as they are read back from a queue. */
export type BullData = BullJobData | BullBundleData;
export type AnyBullJob = Job<BullData, unknown, string>;

export function isBundleData(data: BullData): data is BullBundleData {
  return Array.isArray((data as Partial<BullBundleData>).bundle);
}

/** A bundle item's public job id: the bundle's id and the item's index (JOB_TIMEOUT names it). */
export function bundleItemId(bundleId: string, index: number): string {
  return `${bundleId}.${index}`;
}

const BUNDLE_ITEM_ID = /^([0-9a-f-]{36})\.(\d{1,4})$/;

export function parseBundleItemId(id: string): { bundleId: string; index: number } | undefined {
  const match = BUNDLE_ITEM_ID.exec(id);
  return match === null ? undefined : { bundleId: match[1]!, index: Number(match[2]) };
}

/**
 * A bundle's message on its node's channel: every item's outcome once it completed, or, when an
 * attempt ends with some items final and others retried (`partial`), the final ones, so they are
 * answered at once instead of waiting out the others' backoff. A failed bundle sends the ordinary
 * failed message.
 */
export interface BundleMessage {
  id: string;
  state: 'completed' | 'partial';
  outcomes: Array<BundleOutcome | null>;
}

/** A message's JSON object, or undefined if the text is not one. */
function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

export function parseBundleMessage(text: string): BundleMessage | undefined {
  if (!text.includes('"outcomes"')) return undefined;
  const value = jsonObjectOf(text);
  if (value === undefined) return undefined;
  const { id, state, outcomes } = value;
  if (typeof id !== 'string' || (state !== 'partial' && state !== 'completed') || !Array.isArray(outcomes)) return undefined;
  return { id, state, outcomes: outcomes.map(bundleOutcomeOf) };
}

/** One item's outcome from a bundle's return value or message, checked; anything else is not final. */
export function bundleOutcomeOf(value: unknown): BundleOutcome | null {
  if (typeof value !== 'object' || value === null) return null;
  const { result, error } = value as Record<string, unknown>;
  // The result is the handler's return value, trusted as a job's `returnvalue` is.
  if (typeof result === 'object' && result !== null) return { result: result as JobResults[BundleKind] };
  if (error !== undefined) return { error: jobErrorInfoOf(error) };
  return null;
}

/**
 * Published by workers when a job completes or finally fails. On a node's own channel it carries
 * the outcome (`result` or `error`); on the shared channel only the id and state.
 */
export type JobFinishedMessage =
  { id: string; state: 'completed'; result?: JobResults[JobKind] } | { id: string; state: 'failed'; error?: JobErrorInfo };

/** The shared channel every API node listens on (onFinished: WebSocket and socket.io pushes). */
export function jobEventsChannel(namespace: string | undefined): string {
  return namespacedRedisKey(namespace, JOB_EVENTS_CHANNEL);
}

/** An API node's own channel; `nodeId` is short and of a safe charset (a random UUID). */
export function nodeEventsChannel(namespace: string | undefined, nodeId: string): string {
  return namespacedRedisKey(namespace, nodeJobEventsChannel(nodeId));
}

const NODE_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Where a worker announces a finished job: its `replyTo` if that is a node channel of this
 * namespace (anything else in job data is not trusted as a channel name), else the shared channel.
 */
export function finishedChannelOf(namespace: string | undefined, data: Pick<BullJobData, 'replyTo'>): string {
  const shared = jobEventsChannel(namespace);
  const { replyTo } = data;
  if (typeof replyTo === 'string' && replyTo.startsWith(`${shared}:`) && NODE_ID.test(replyTo.slice(shared.length + 1))) return replyTo;
  return shared;
}

/** The message for a finished job: with its outcome when it goes to the node that waits for it. */
export function finishedMessageOf(job: BullJob, state: JobFinishedMessage['state'], withOutcome: boolean): JobFinishedMessage {
  const id = job.id ?? '';
  if (!withOutcome) return { id, state };
  return state === 'completed' ? { id, state, result: job.returnvalue } : { id, state, error: parseFailedReason(job.failedReason) };
}

/**
 * How long BullMQ keeps a finished job: the `age` of its removeOnComplete or removeOnFail, which
 * the API node sets to JOB_RETENTION_SECONDS (bullmq-queue.ts). Undefined if the job names none.
 */
export function finishedRetentionMs(job: Pick<AnyBullJob, 'opts'>, state: JobFinishedMessage['state']): number | undefined {
  const keep = state === 'completed' ? job.opts.removeOnComplete : job.opts.removeOnFail;
  return typeof keep === 'object' && 'age' in keep && typeof keep.age === 'number' ? keep.age * 1000 : undefined;
}

/** A message as received, checked field by field; undefined if it is not one. */
export function parseJobFinishedMessage(text: string): JobFinishedMessage | undefined {
  const value = jsonObjectOf(text);
  if (value === undefined) return undefined;
  const { id, state, result, error } = value;
  if (typeof id !== 'string' || id.length === 0) return undefined;
  // The result is the handler's return value, trusted as the job's `returnvalue` in Redis is.
  if (state === 'completed') return result === undefined ? { id, state } : { id, state, result: result as JobResults[JobKind] };
  if (state !== 'failed') return undefined;
  return error === undefined ? { id, state } : { id, state, error: jobErrorInfoOf(error) };
}

/** BullMQ's key prefix for a namespace (undefined: BullMQ's default `bull`). */
export function bullPrefixOf(namespace: string | undefined): string {
  return namespace ?? BULL_PREFIX;
}

/** A failed job's `failedReason` is the JSON of its JobErrorInfo; anything else reads as INTERNAL_ERROR. */
export function parseFailedReason(reason: string | undefined): JobErrorInfo {
  try {
    return jobErrorInfoOf(JSON.parse(reason ?? ''));
  } catch {
    // not ours: e.g. "job stalled more than allowable limit"
    return jobErrorInfoOf(undefined);
  }
}

function jobErrorInfoOf(value: unknown): JobErrorInfo {
  if (typeof value === 'object' && value !== null) {
    const { code, message, details } = value as Record<string, unknown>;
    if (typeof code === 'string' && typeof message === 'string') {
      return typeof details === 'string' ? { code, message, details } : { code, message };
    }
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
