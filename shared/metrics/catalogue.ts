/**
 * The metric catalogue of docs/operating.md ("Catalogue"), one Prometheus registry per process.
 * Names, types and labels are a contract: deploy/prometheus, deploy/grafana and the KEDA
 * ScaledObjects query exactly these (test/deploy checks them against the doc).
 *
 * Bucket choices are recorded in docs/decisions.md ("Operating").
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** 2.5 s is the p99 alert's threshold, 30 s SYNC_TIMEOUT's default: both are bucket edges. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** From a worker picking a job at once (ms) to a backlog past the 5-minute critical alert. */
export const JOB_WAIT_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];
/** An inline 64 KiB hash takes ~0.2 ms; a 1 GiB stream minutes. */
export const JOB_RUN_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

export interface Metrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'route' | 'generation' | 'method' | 'status'>;
  readonly httpDuration: Histogram<'route' | 'generation' | 'method'>;
  readonly httpInFlight: Gauge;
  readonly uploadBytes: Counter<'route'>;
  readonly jobWait: Histogram<'kind'>;
  readonly jobRun: Histogram<'kind'>;
  readonly jobsCompleted: Counter<'kind' | 'path'>;
  readonly jobsFailed: Counter<'kind' | 'code'>;
  readonly jobsRetried: Counter<'kind' | 'code'>;
  readonly queueJobs: Gauge<'queue' | 'state'>;
  readonly queueOldestWaitingAge: Gauge<'queue'>;
  readonly queueWorkers: Gauge<'queue'>;
  readonly refusals: Counter<'reason'>;
  readonly realtimeConnections: Gauge<'transport'>;
  readonly usageFlushLag: Gauge;
  readonly usageFlushFailures: Counter;
  readonly dependencyUp: Gauge<'dependency'>;
  /**
   * Run before each scrape (exposition.ts) to set the gauges read from elsewhere: queue counts,
   * connections, flush lag, dependency checks. Each must be cheap or cached; a failure is logged
   * by its owner and leaves the previous value.
   */
  readonly collectors: Set<() => Promise<void> | void>;
}

/** A fresh registry with the whole catalogue; `defaults` adds prom-client's process metrics, unprefixed. */
export function createMetrics(options: { defaults?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaults === true) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    collectors: new Set(),
    httpRequests: new Counter({
      name: 'sha224d_http_requests_total',
      help: 'HTTP requests answered by an API node (or embedded node).',
      labelNames: ['route', 'generation', 'method', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'sha224d_http_request_duration_seconds',
      help: "Time from a request's arrival to the end of its response.",
      labelNames: ['route', 'generation', 'method'] as const,
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    }),
    httpInFlight: new Gauge({
      name: 'sha224d_http_requests_in_flight',
      help: 'Requests this node has received and not yet finished answering.',
      registers,
    }),
    uploadBytes: new Counter({
      name: 'sha224d_http_upload_bytes_total',
      help: 'Request body bytes received on upload routes (file, stream and multipart uploads).',
      labelNames: ['route'] as const,
      registers,
    }),
    jobWait: new Histogram({
      name: 'sha224d_job_wait_seconds',
      help: 'Time a queued job waited from enqueue until a worker started it.',
      labelNames: ['kind'] as const,
      buckets: JOB_WAIT_BUCKETS,
      registers,
    }),
    jobRun: new Histogram({
      name: 'sha224d_job_run_seconds',
      help: 'Time spent computing a job, on a worker or inline on the API node.',
      labelNames: ['kind'] as const,
      buckets: JOB_RUN_BUCKETS,
      registers,
    }),
    jobsCompleted: new Counter({
      name: 'sha224d_jobs_completed_total',
      help: 'Jobs that finished successfully, inline on the API node or through the queue.',
      labelNames: ['kind', 'path'] as const,
      registers,
    }),
    jobsFailed: new Counter({
      name: 'sha224d_jobs_failed_total',
      help: 'Jobs that failed for good (no attempt left), by error code.',
      labelNames: ['kind', 'code'] as const,
      registers,
    }),
    jobsRetried: new Counter({
      name: 'sha224d_jobs_retried_total',
      help: 'Job attempts that failed and will be tried again, by error code.',
      labelNames: ['kind', 'code'] as const,
      registers,
    }),
    queueJobs: new Gauge({
      name: 'sha224d_queue_jobs',
      help: 'Jobs in the queue in each state (the whole cluster: aggregate with max).',
      labelNames: ['queue', 'state'] as const,
      registers,
    }),
    queueOldestWaitingAge: new Gauge({
      name: 'sha224d_queue_oldest_waiting_age_seconds',
      help: 'Age of the oldest job waiting in the queue, 0 when none waits.',
      labelNames: ['queue'] as const,
      registers,
    }),
    queueWorkers: new Gauge({
      name: 'sha224d_queue_workers',
      help: 'Workers currently consuming the queue.',
      labelNames: ['queue'] as const,
      registers,
    }),
    refusals: new Counter({
      name: 'sha224d_refusals_total',
      help: 'Requests and realtime messages refused before any work was done, by reason.',
      labelNames: ['reason'] as const,
      registers,
    }),
    realtimeConnections: new Gauge({
      name: 'sha224d_realtime_connections',
      help: 'Open WebSocket and socket.io connections on this node.',
      labelNames: ['transport'] as const,
      registers,
    }),
    usageFlushLag: new Gauge({
      name: 'sha224d_usage_flush_lag_seconds',
      help: "Age of this node's oldest accepted-request count not yet written to the SQL store.",
      registers,
    }),
    usageFlushFailures: new Counter({
      name: 'sha224d_usage_flush_failures_total',
      help: 'Flushes of accepted-request counts to the SQL store that failed.',
      registers,
    }),
    dependencyUp: new Gauge({
      name: 'sha224d_dependency_up',
      help: "1 when this node's last check of the dependency succeeded, 0 when it failed.",
      labelNames: ['dependency'] as const,
      registers,
    }),
  };
}

let processWide: Metrics | undefined;

/**
 * This process's registry (default metrics included). Every composition root and every
 * component that is not handed another one records here; tests that need isolation build their
 * own with createMetrics().
 */
export function processMetrics(): Metrics {
  processWide ??= createMetrics({ defaults: true });
  return processWide;
}
