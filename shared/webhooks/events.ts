/**
 * The events a webhook carries (docs/webhooks.md "Events"). Thin on purpose: the job's id, kind,
 * final status and its digest or error; anything larger (a batch's items) is read with
 * GET /v2/jobs/{id}, so a payload never carries more than a receiver expects to log. Their shapes
 * are the zod schemas of event-schema.ts, which /asyncapi.json publishes.
 */
import type { JobErrorInfo, JobRecord } from '../queue/types.js';

import type { WebhookEvent } from './event-schema.js';

export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types.js';
export type { JobEventData, WebhookEvent } from './event-schema.js';
/** The test event sent from the management API; never matched by an endpoint's filter. */
export const TEST_EVENT_TYPE = 'webhook.test' satisfies WebhookEvent['type'];

/** The job a finished job's event describes, from what the queue holds. */
export interface FinishedJob {
  id: string;
  kind: string;
  accountId: string;
  state: 'completed' | 'failed';
  result?: unknown;
  error?: JobErrorInfo;
  finishedAt?: number;
}

function digestOf(result: unknown): { hash?: string; size?: number; count?: number } {
  if (typeof result !== 'object' || result === null) return {};
  const r = result as Record<string, unknown>;
  if (typeof r.digest === 'string') return { hash: r.digest, ...(typeof r.size === 'number' ? { size: r.size } : {}) };
  if (Array.isArray(r.results)) return { count: r.results.length };
  return {};
}

export function jobEvent(job: FinishedJob, now = Date.now()): WebhookEvent {
  const timestamp = new Date(job.finishedAt ?? now).toISOString();
  const base = { job_id: job.id, kind: job.kind };
  if (job.state === 'completed')
    return { type: 'job.completed', timestamp, data: { ...base, status: 'completed', ...digestOf(job.result) } };
  const error = job.error ?? { code: 'INTERNAL_ERROR', message: 'Internal error' };
  return { type: 'job.failed', timestamp, data: { ...base, status: 'failed', error } };
}

export function finishedJobOf(record: JobRecord): FinishedJob | undefined {
  if (record.state !== 'completed' && record.state !== 'failed') return undefined;
  return {
    id: record.id,
    kind: record.kind,
    accountId: record.accountId,
    state: record.state,
    ...(record.result === undefined ? {} : { result: record.result }),
    ...(record.error === undefined ? {} : { error: record.error }),
    ...(record.finishedAt === undefined ? {} : { finishedAt: record.finishedAt }),
  };
}

export function testEvent(now = Date.now()): WebhookEvent {
  return { type: 'webhook.test', timestamp: new Date(now).toISOString(), data: { message: 'sha224d test event' } };
}

/** An endpoint's filter: the event types it wants, empty for all job events. */
export function filterMatches(filter: readonly string[], type: string): boolean {
  return filter.length === 0 || filter.includes(type);
}

/** What makes an event's deliveries unique per endpoint (the table's (endpoint, event) key). */
export function eventKeyOf(type: string, subject: string): string {
  return `${type}:${subject}`;
}

/**
 * The endpoints a finished job's event goes to: the one the submission named (whatever its filter),
 * else every one whose filter takes the event (docs/decisions.md "Webhooks").
 */
export function endpointsForEvent<E extends { id: string; eventTypes: readonly string[] }>(
  enabled: readonly E[],
  type: string,
  target: { endpointId?: string | undefined } | undefined,
): E[] {
  if (target?.endpointId !== undefined) return enabled.filter((e) => e.id === target.endpointId);
  return enabled.filter((e) => filterMatches(e.eventTypes, type));
}
