/**
 * Async jobs: submit (`?async=true`, 202 with a job id) → wait, by polling GET /v2/jobs/{id} with
 * backoff, or by a socket.io `subscribe` when socket.io-client is installed (docs/realtime.md).
 */
import { idempotencyKeyFor, type ClientContext, type RequestOptions } from './context.js';
import { errorFromEnvelope, NetworkError, Sha224dError, waitTimeout } from './errors.js';
import { abortReason, sleep } from './retry.js';
import { JobSubscriptions } from './realtime/subscriptions.js';
import type { AcceptedResponse, BatchRequest, JobStatus } from './types.js';
import type { UploadInput } from './upload/source.js';
import { submitUpload, type AutoUploadOptions } from './upload/upload.js';
import { getJson } from './requests.js';

export type CompletedJob = Extract<JobStatus, { status: 'completed' }>;

export interface SubmitOptions extends RequestOptions {
  /** Sent as Idempotency-Key (a resubmission returns the first job); generated when retries are on. */
  idempotencyKey?: string;
}

export interface WaitOptions {
  /** `auto` (default): socket.io when installed and the client holds an API key, else polling. */
  via?: 'auto' | 'poll' | 'socket';
  /** Give up (WaitTimeoutError) after this long; default 10 minutes. */
  timeoutMs?: number;
  /** First polling interval; grows ×1.5 per poll up to `maxPollIntervalMs`. Default 250. */
  pollIntervalMs?: number;
  /** Default 5000. */
  maxPollIntervalMs?: number;
  signal?: AbortSignal;
}

export class JobsApi {
  private readonly subscriptions: JobSubscriptions;

  constructor(private readonly context: ClientContext) {
    this.subscriptions = new JobSubscriptions(context);
  }

  /** GET /v2/jobs/{id}: the job's state; when completed, the synchronous call's body. */
  get(id: string, options?: RequestOptions): Promise<JobStatus> {
    return getJson<JobStatus>(this.context, 'v2.jobs.get', `/v2/jobs/${encodeURIComponent(id)}`, options);
  }

  /** POST /v2/batch?async=true. */
  submit(kind: 'batch', request: BatchRequest, options?: SubmitOptions): Promise<AcceptedResponse>;
  /** An upload as a job: /v2/file or /v2/stream by size (`upload`), or the one named. */
  submit(kind: 'upload' | 'file' | 'stream', input: UploadInput, options?: AutoUploadOptions): Promise<AcceptedResponse>;
  async submit(
    kind: 'batch' | 'upload' | 'file' | 'stream',
    input: BatchRequest | UploadInput,
    options: SubmitOptions & AutoUploadOptions = {},
  ): Promise<AcceptedResponse> {
    if (kind !== 'batch') {
      return submitUpload(this.context, input as UploadInput, { ...options, endpoint: kind === 'upload' ? 'auto' : kind });
    }
    const key = idempotencyKeyFor(this.context, options.idempotencyKey);
    const reply = await this.context.transport.request({
      operation: 'jobs.submit',
      method: 'POST',
      path: '/v2/batch',
      generation: 'v2',
      query: { async: true },
      json: input,
      headers: key === undefined ? {} : { 'Idempotency-Key': key },
      retryable: key !== undefined,
      timeoutMs: options.timeoutMs ?? this.context.timeoutMs,
      signal: options.signal,
    });
    return reply.body as AcceptedResponse;
  }

  /**
   * The finished job's body (the synchronous call's answer plus job_id and status). A failed job
   * throws the error it failed with (its class by code, `jobId` set).
   */
  async wait(id: string, options: WaitOptions = {}): Promise<CompletedJob> {
    const deadline = Date.now() + (options.timeoutMs ?? 600_000);
    const via = options.via ?? 'auto';
    let final: JobStatus | undefined;
    if (via !== 'poll' && (via === 'socket' || (await this.subscriptions.available()))) {
      try {
        final = await this.subscriptions.subscribe(id, deadline, options.signal);
      } catch (err) {
        // A socket that drops or cannot connect in `auto` mode leaves polling to finish the wait.
        if (via === 'socket' || !(err instanceof NetworkError)) throw err;
      }
    }
    final ??= await this.poll(id, deadline, options);
    return settled(final);
  }

  /** The job's final state, pushed by socket.io (needs socket.io-client and an API key). */
  subscribe(id: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<JobStatus> {
    return this.subscriptions.subscribe(id, Date.now() + (options.timeoutMs ?? 600_000), options.signal);
  }

  /** Closes the shared socket.io connection, if one is open. */
  close(): void {
    this.subscriptions.close();
  }

  private async poll(id: string, deadline: number, options: WaitOptions): Promise<JobStatus> {
    let interval = options.pollIntervalMs ?? 250;
    const max = options.maxPollIntervalMs ?? 5000;
    for (;;) {
      if (options.signal?.aborted) throw abortReason(options.signal);
      const status = await this.get(id, { signal: options.signal });
      if (status.status === 'completed' || status.status === 'failed') return status;
      const left = deadline - Date.now();
      if (left <= 0) throw waitTimeout(id);
      await sleep(Math.min(interval, left), options.signal);
      interval = Math.min(max, interval * 1.5);
    }
  }
}

function settled(status: JobStatus): CompletedJob {
  if (status.status === 'completed') return status;
  if (status.status === 'failed') throw errorFromEnvelope(status, { jobId: status.job_id });
  throw new Sha224dError({ code: 'UNEXPECTED_RESPONSE', message: `job ${status.job_id} is ${status.status}, not finished` });
}
