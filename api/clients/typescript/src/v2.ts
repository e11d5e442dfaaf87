/** One method per /v2 operation (docs/api.md "v2 endpoints"); bodies and answers typed from the OpenAPI document. */
import { BulkApi } from './bulk.js';
import type { ClientContext, RequestOptions } from './context.js';
import { postJson } from './requests.js';
import type { CompletedJob, JobsApi, SubmitOptions, WaitOptions } from './jobs.js';
import type {
  BatchRequest,
  AcceptedResponse,
  BatchResponse,
  FileResponse,
  HashRequest,
  HashResponse,
  HmacRequest,
  HmacResponse,
  JobStatus,
  StreamResponse,
  VerifyRequest,
  VerifyResponse,
} from './types.js';
import type { UploadInput } from './upload/source.js';
import { upload, uploadFile, uploadStream, type AutoUploadOptions, type UploadOptions } from './upload/upload.js';

/** /v2/jobs: the same operations as `client.jobs`, under the names every SDK uses (docs/decisions.md). */
export interface V2Jobs {
  /** GET /v2/jobs/{id}. */
  get(id: string, options?: RequestOptions): Promise<JobStatus>;
  /** Polls (or subscribes) until the job finishes; a failed job throws its error. */
  wait(id: string, options?: WaitOptions): Promise<CompletedJob>;
  /** The final state, pushed by socket.io. */
  subscribe(id: string, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<JobStatus>;
}

export class V2Api {
  readonly jobs: V2Jobs;
  /** /v2/bulk: create (NDJSON items, URLs, a bucket), get, cancel, results (docs/api.md "Bulk jobs"). */
  readonly bulk: BulkApi;

  constructor(
    private readonly context: ClientContext,
    private readonly jobsApi: JobsApi,
  ) {
    this.bulk = new BulkApi(context);
    this.jobs = {
      get: (id, options) => jobsApi.get(id, options),
      wait: (id, options) => jobsApi.wait(id, options),
      subscribe: (id, options) => jobsApi.subscribe(id, options),
    };
  }

  /** POST /v2/hash: SHA-224 of `data` (utf8, hex or base64), as hex, base64 or binary (base64). */
  hash(request: HashRequest, options?: RequestOptions): Promise<HashResponse> {
    return postJson(this.context, 'v2.hash', '/v2/hash', request, options);
  }

  /** POST /v2/verify: does `data` hash to `hash` (compared in constant time by the service)? */
  verify(request: VerifyRequest, options?: RequestOptions): Promise<VerifyResponse> {
    return postJson(this.context, 'v2.verify', '/v2/verify', request, options);
  }

  /** POST /v2/hmac: HMAC-SHA-224. */
  hmac(request: HmacRequest, options?: RequestOptions): Promise<HmacResponse> {
    return postJson(this.context, 'v2.hmac', '/v2/hmac', request, options);
  }

  /** POST /v2/batch: up to 1000 items. For a job (`?async=true`) use `client.jobs.submit('batch', …)`. */
  batch(request: BatchRequest, options?: RequestOptions): Promise<BatchResponse> {
    return postJson(this.context, 'v2.batch', '/v2/batch', request, options);
  }

  /** POST /v2/file: a multipart upload, streamed from the source (up to 100 MB; docs/api.md "Other limits"). */
  file(input: UploadInput, options?: UploadOptions): Promise<FileResponse> {
    return uploadFile(this.context, input, options);
  }

  /** POST /v2/stream: the raw bytes, sent chunked (any size up to the plan's limit). */
  stream(input: UploadInput, options?: UploadOptions): Promise<StreamResponse> {
    return uploadStream(this.context, input, options);
  }

  /** POST /v2/batch?async=true: 202 with the job's id (with an Idempotency-Key). */
  submitBatch(request: BatchRequest, options?: SubmitOptions): Promise<AcceptedResponse> {
    return this.jobsApi.submit('batch', request, options);
  }

  /** POST /v2/file?async=true. */
  submitFile(input: UploadInput, options?: UploadOptions): Promise<AcceptedResponse> {
    return this.jobsApi.submit('file', input, options);
  }

  /** POST /v2/stream?async=true. */
  submitStream(input: UploadInput, options?: UploadOptions): Promise<AcceptedResponse> {
    return this.jobsApi.submit('stream', input, options);
  }

  /** /v2/file or /v2/stream by size (`client.upload`). */
  upload(input: UploadInput, options?: AutoUploadOptions): Promise<FileResponse | StreamResponse> {
    return upload(this.context, input, options);
  }
}
