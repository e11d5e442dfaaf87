/** The client: one object holding the credential, the address and the retry rules. */
import { Authorizer, type Credentials } from './auth.js';
import type { ClientContext } from './context.js';
import { JobsApi } from './jobs.js';
import type { Platform, SocketIoConnect } from './platform.js';
import { HashSession, type SessionOptions } from './realtime/session.js';
import { retryPolicy, type RetryEvent, type RetryOptions } from './retry.js';
import { Transport } from './transport.js';
import type { FileResponse, StreamResponse } from './types.js';
import type { UploadInput } from './upload/source.js';
import { upload, type AutoUploadOptions } from './upload/upload.js';
import { uploadResumable, type ResumableInput, type ResumableOptions, type ResumableResult } from './upload/resumable.js';
import type { CompletedJob, WaitOptions } from './jobs.js';
import { V1Api } from './v1.js';
import { V2Api } from './v2.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

export interface ClientOptions extends Credentials {
  /** The service's address (`{base_url}`); default http://127.0.0.1:8080. */
  baseUrl?: string;
  /** The sandbox's address (`{sandbox_url}`); used instead of baseUrl when `sandbox` is true. */
  sandboxUrl?: string;
  /** Send every request to the sandbox (it serves /v1; its usage never counts in production). */
  sandbox?: boolean;
  /** Retry rules (retry.ts); `false` sends every request once. */
  retry?: RetryOptions | false;
  /** Called before each wait for a retry. */
  onRetry?: (event: RetryEvent) => void;
  /** Per-attempt timeout of JSON requests, in ms; default 60,000. Uploads have none unless given per call. */
  timeoutMs?: number;
  /** Another fetch (tests, proxies); default the global one. */
  fetch?: typeof fetch;
  /** socket.io-client's `io`, for job subscriptions in browsers (Node loads it when installed). */
  socketIo?: SocketIoConnect;
}

export class BaseClient {
  /** /v1 Set A and Set B. */
  readonly v1: V1Api;
  /** /v2. */
  readonly v2: V2Api;
  /** Async jobs: submit, get, wait, subscribe. */
  readonly jobs: JobsApi;
  /** The address requests go to (the sandbox's when `sandbox` is set). */
  readonly baseUrl: string;
  private readonly context: ClientContext;

  protected constructor(options: ClientOptions, platform: Platform) {
    if (options.sandbox && options.sandboxUrl === undefined) throw new TypeError('sandbox: true needs sandboxUrl');
    this.baseUrl = (options.sandbox ? options.sandboxUrl : options.baseUrl) ?? DEFAULT_BASE_URL;
    new URL(this.baseUrl); // throws TypeError on a malformed address, before any request
    const retry = retryPolicy(options.retry);
    const authorizer = new Authorizer(options);
    const socketIo = options.socketIo;
    const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
    this.context = {
      transport: new Transport({
        baseUrl: this.baseUrl,
        authorizer,
        retry,
        fetch: fetchImpl,
        onRetry: options.onRetry,
        preferBlobBodies: platform.preferBlobBodies,
      }),
      authorizer,
      platform: socketIo === undefined ? platform : { ...platform, loadSocketIo: () => Promise.resolve(socketIo) },
      retry,
      timeoutMs: options.timeoutMs ?? 60_000,
    };
    this.v1 = new V1Api(this.context);
    this.jobs = new JobsApi(this.context);
    this.v2 = new V2Api(this.context, this.jobs);
  }

  /**
   * Hashes a file or stream on the service, streamed (never held in memory whole): /v2/file up to
   * 100 MiB when the size is known, /v2/stream otherwise.
   */
  upload(input: UploadInput, options?: AutoUploadOptions): Promise<FileResponse | StreamResponse> {
    return upload(this.context, input, options);
  }

  /**
   * Hashes a file through /v2/uploads (tus 1.0), in chunks that survive a cut connection; with
   * `uploadUrl` from an earlier run it continues from the server's offset. Waits for the `file`
   * job that holds the digest; a wrong `expect` throws its HASH_MISMATCH.
   */
  async uploadResumable(
    input: ResumableInput,
    options: ResumableOptions & { waitTimeoutMs?: number; waitVia?: WaitOptions['via'] } = {},
  ): Promise<ResumableResult & { result: CompletedJob }> {
    const uploaded = await uploadResumable(this.context, input, options);
    const result = await this.jobs.wait(uploaded.jobId, { timeoutMs: options.waitTimeoutMs, signal: options.signal, via: options.waitVia });
    return { ...uploaded, result };
  }

  /** A /v2/ws session for many small hashes over one connection (needs an API key). */
  realtime(options?: SessionOptions): HashSession {
    return new HashSession(this.context, options);
  }

  /** Releases the shared socket.io connection, if any (HTTP needs no closing). */
  close(): void {
    this.jobs.close();
  }
}
