/**
 * Recording with bounded labels (docs/operating.md "Label values"): every value comes from a
 * closed set in the code (job kinds, error codes, refusal reasons), anything else is mapped to
 * a fixed fallback or dropped, so no caller can create a series per id, key or path. Label-bound
 * children are built once and cached: the hot path is a property read and an add.
 */
import type { Counter, Histogram } from 'prom-client';
import { ERROR_CATALOG } from '../errors.js';
import { QUEUE_NAMES, QUEUE_OF_KIND, type JobKind, type QueueName } from '../jobs/contracts.js';
import type { Metrics } from './catalogue.js';

export const JOB_KINDS = Object.keys(QUEUE_OF_KIND) as JobKind[];
export const JOB_PATHS = ['queue', 'inline'] as const;
export type JobPath = (typeof JOB_PATHS)[number];
export const REFUSAL_REASONS = ['rate', 'quota', 'auth', 'ip', 'permission', 'origin'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'paused'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];
export const TRANSPORTS = ['ws', 'socketio'] as const;
export const DEPENDENCIES = ['redis', 'store', 'blobs'] as const;
export type Dependency = (typeof DEPENDENCIES)[number];

/** One cached child per value of a metric's single label. */
function counterChildren(metric: Counter<string>, values: readonly string[]): ReadonlyMap<string, Counter.Internal> {
  return new Map(values.map((value) => [value, metric.labels(value)]));
}

function histogramChildren(metric: Histogram<string>, values: readonly string[]): ReadonlyMap<string, Histogram.Internal<string>> {
  return new Map(values.map((value) => [value, metric.labels(value)]));
}

/** A known error code, else INTERNAL_ERROR: codes cross process boundaries as strings. */
export function boundedCode(code: string): string {
  return Object.hasOwn(ERROR_CATALOG, code) ? code : 'INTERNAL_ERROR';
}

export interface JobRecorder {
  /** Seconds from enqueue until a worker started the job (queued jobs only). */
  waited(kind: JobKind, seconds: number): void;
  ran(kind: JobKind, seconds: number): void;
  completed(kind: JobKind, path: JobPath): void;
  failed(kind: JobKind, code: string): void;
  retried(kind: JobKind, code: string): void;
}

const recorders = new WeakMap<Metrics, JobRecorder>();

export function jobRecorder(metrics: Metrics): JobRecorder {
  let recorder = recorders.get(metrics);
  if (recorder) return recorder;
  const wait = histogramChildren(metrics.jobWait, JOB_KINDS);
  const run = histogramChildren(metrics.jobRun, JOB_KINDS);
  const completed = new Map(
    JOB_PATHS.map((path) => [path, new Map(JOB_KINDS.map((kind) => [kind, metrics.jobsCompleted.labels(kind, path)]))]),
  );
  // Codes are a closed set too, but 7 kinds × ~20 codes is built on first use rather than up front.
  const byCode = (counter: Counter<'kind' | 'code'>) => {
    const cache = new Map<string, Counter.Internal>();
    return (kind: JobKind, code: string): void => {
      if (!QUEUE_OF_KIND[kind]) return;
      const bounded = boundedCode(code);
      const key = `${kind} ${bounded}`;
      let child = cache.get(key);
      if (!child) {
        child = counter.labels(kind, bounded);
        cache.set(key, child);
      }
      child.inc();
    };
  };
  const failed = byCode(metrics.jobsFailed);
  const retried = byCode(metrics.jobsRetried);
  recorder = {
    waited: (kind, seconds) => wait.get(kind)?.observe(Math.max(0, seconds)),
    ran: (kind, seconds) => run.get(kind)?.observe(Math.max(0, seconds)),
    completed: (kind, path) => completed.get(path)?.get(kind)?.inc(),
    failed,
    retried,
  };
  recorders.set(metrics, recorder);
  return recorder;
}

const refusalChildren = new WeakMap<Metrics, ReadonlyMap<string, Counter.Internal>>();

/** Count a request or realtime message refused before any work was done. */
export function countRefusal(metrics: Metrics, reason: RefusalReason): void {
  let children = refusalChildren.get(metrics);
  if (!children) {
    children = counterChildren(metrics.refusals, REFUSAL_REASONS);
    refusalChildren.set(metrics, children);
  }
  children.get(reason)?.inc();
}

/** What the queue gauges report for one queue. */
export interface QueueFigures {
  counts: Record<QueueState, number>;
  oldestWaitingAgeSeconds: number;
  /** Undefined when unknown (the series is then not exported for this queue). */
  workers: number | undefined;
}

export function setQueueFigures(metrics: Metrics, queue: QueueName, figures: QueueFigures): void {
  if (!QUEUE_NAMES.includes(queue)) return;
  for (const state of QUEUE_STATES) metrics.queueJobs.set({ queue, state }, figures.counts[state]);
  metrics.queueOldestWaitingAge.set({ queue }, figures.oldestWaitingAgeSeconds);
  if (figures.workers !== undefined) metrics.queueWorkers.set({ queue }, figures.workers);
}

export function setDependency(metrics: Metrics, dependency: Dependency, up: boolean): void {
  metrics.dependencyUp.set({ dependency }, up ? 1 : 0);
}
