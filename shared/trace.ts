/**
 * The request a piece of work belongs to, carried across the queue: the API node's request id and
 * the caller's W3C `traceparent` (Trace Context, https://www.w3.org/TR/trace-context/ §3.2) travel
 * in the job data, and the worker's log lines for the job carry them, so one grep for a request id
 * finds the request line on the API node and the job lines on the worker.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TraceContext {
  requestId?: string;
  traceparent?: string;
}

/**
 * Whether the caller of an HTTP request is still there: `signal` aborts when it is gone before its
 * answer (the connection closed). Read on demand, so a request that never waits on the queue
 * builds no signal. Never leaves this process.
 */
export interface CallerWatch {
  readonly signal: AbortSignal;
}

/**
 * The time one request has spent waiting on the database so far: the PostgreSQL pool gives each
 * connection and statement only what is left of PG_REQUEST_TIMEOUT_MS (shared/store/pg-pool.ts).
 */
export interface DatabaseWait {
  waitedMs: number;
}

/**
 * What the work in progress belongs to: its trace fields, for an HTTP request whether its caller is
 * still there, and its database time (the scope is its own DatabaseWait: no second object per request).
 */
interface RequestScope extends DatabaseWait {
  trace: TraceContext;
  callerGone: CallerWatch | undefined;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Run `fn` (and everything it awaits) as part of `context`; `callerGone`'s signal aborts when its caller leaves. */
export function runWithTrace<T>(context: TraceContext, fn: () => T, callerGone?: CallerWatch): T {
  return storage.run({ trace: context, callerGone, waitedMs: 0 }, fn);
}

/**
 * Run `fn` (and everything it awaits) as background work, outside the request in progress: work
 * shared by many requests (the transparency log's group commit) must not spend, or be cut off by,
 * the database time of whichever request happened to start it.
 */
export function outsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
}

/** The database time of the request in progress; undefined outside one (background work keeps the per-step bounds only). */
export function currentDatabaseWait(): DatabaseWait | undefined {
  return storage.getStore();
}

/** The context of the work in progress, if any: what the queue producer copies into a job. */
export function currentTrace(): TraceContext | undefined {
  return storage.getStore()?.trace;
}

/** Aborts when the caller of the work in progress is gone (api/jobs/executor.ts cancels its queued job). */
export function currentCallerGone(): AbortSignal | undefined {
  return storage.getStore()?.callerGone?.signal;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * A valid `traceparent` header value, normalised to its first 55 characters, or undefined (Trace Context §3.2.2):
 * lower-case hex fields, version ff forbidden, version 00 exactly 55 characters, all-zero trace
 * and parent ids invalid. A later version may append fields; they are dropped, as Trace Context §3.2.4 lets a
 * version-00 parser do. Anything else is ignored, never echoed into logs.
 */
export function parseTraceparent(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 512) return undefined;
  const m = TRACEPARENT.exec(value.trim());
  if (!m) return undefined;
  const [, version, traceId, parentId, , rest] = m;
  if (version === 'ff') return undefined;
  if (version === '00' && rest !== undefined) return undefined;
  if (/^0+$/.test(traceId!) || /^0+$/.test(parentId!)) return undefined;
  return value.trim().slice(0, 55);
}

/** The fields a job's log lines carry: only those present, and only well-formed ones. */
export function traceFields(context: TraceContext | undefined): TraceContext {
  const fields: TraceContext = {};
  if (context === undefined) return fields;
  if (typeof context.requestId === 'string' && /^[A-Za-z0-9._:-]{1,64}$/.test(context.requestId)) fields.requestId = context.requestId;
  const traceparent = parseTraceparent(context.traceparent);
  if (traceparent !== undefined) fields.traceparent = traceparent;
  return fields;
}
