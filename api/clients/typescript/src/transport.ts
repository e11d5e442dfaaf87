/**
 * One HTTP exchange with the service on `fetch`: the credential's header, a per-attempt timeout,
 * retries by the rules of retry.ts, one token refresh after a 401, and typed errors.
 */
import type { Authorizer, Generation } from './auth.js';
import { ApiError, errorFromResponse, NetworkError, Sha224dError } from './errors.js';
import { randomUuid } from './ids.js';
import { abortReason, RETRY_STATUSES, retryDelayMs, sleep, type RetryEvent, type RetryPolicy } from './retry.js';

/** A request body that can be produced on demand; `replayable` when it can be produced again. */
export interface BodySource {
  contentType: string;
  /** Exact byte length when known (sent as Content-Length), else the body is sent chunked. */
  length?: number;
  replayable: boolean;
  open(): ReadableStream<Uint8Array>;
  /**
   * The whole body as a Blob, when it is made of Blobs and bytes only. Browsers send it instead of
   * a stream: they stream a Blob from disk themselves, while a streamed request body needs HTTP/2
   * in Chromium. Progress is then reported when the request starts and when it ends.
   */
  blob?: () => Blob;
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestSpec {
  /** Operation name, e.g. `v2.hash` (in retry events). */
  operation: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  generation: Generation;
  /** A 2xx answer's body is handed over unread, as a stream (NDJSON results); errors are read as usual. */
  rawResponse?: boolean;
  query?: Record<string, QueryValue>;
  json?: unknown;
  body?: BodySource;
  headers?: Record<string, string>;
  /**
   * Safe to send twice: a computation or read, or a submission/upload carrying an
   * Idempotency-Key. A body that cannot be produced again is never re-sent, whatever this says.
   */
  retryable: boolean;
  /** Per-attempt limit; undefined = none (uploads run as long as their bytes flow). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface TransportOptions {
  baseUrl: string;
  /** Send BodySource.blob() when available (browsers) rather than a stream (Node). */
  preferBlobBodies: boolean;
  authorizer: Authorizer;
  retry: RetryPolicy;
  fetch: typeof fetch;
  onRetry?: (event: RetryEvent) => void;
}

// Node's fetch (undici) needs `duplex: 'half'` to send a ReadableStream body; DOM's RequestInit type lacks it.
type StreamingInit = RequestInit & { duplex?: 'half' };

export class Transport {
  constructor(private readonly options: TransportOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  url(path: string, query: Record<string, QueryValue> = {}): URL {
    const url = new URL(path.replace(/^\//, ''), this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
    return url;
  }

  /**
   * One bare exchange with the credential's header and no retries, whatever the status: the tus
   * client (upload/resumable.ts) reads statuses and headers itself and retries by its own rules.
   */
  async raw(
    url: string,
    init: { method: string; headers: Record<string, string>; body?: Uint8Array; signal?: AbortSignal; generation: Generation },
  ): Promise<Response> {
    const auth = await this.options.authorizer.header(init.generation);
    const headers = new Headers(init.headers);
    headers.set(auth.name, auth.value);
    const target = new URL(url, this.options.baseUrl);
    // A Uint8Array is a valid fetch body; the DOM typing only rejects views over a SharedArrayBuffer.
    return this.options.fetch(target, {
      method: init.method,
      headers,
      body: init.body as BodyInit | undefined,
      signal: init.signal,
      redirect: 'manual',
    });
  }

  /** The answer of a 2xx; anything else is thrown as a Sha224dError subclass. */
  async request(spec: RequestSpec): Promise<Reply> {
    const { retry } = this.options;
    const jsonText = spec.json === undefined ? undefined : JSON.stringify(spec.json);
    let bodyOpened = false;
    let refreshed = false;
    // One X-Request-Id per call, reused by its retries: the service's log lines of one call share it.
    const requestId = randomUuid();
    for (let retries = 0; ;) {
      const canResend = (): boolean => spec.body === undefined || spec.body.replayable || !bodyOpened;
      const auth = await this.options.authorizer.header(spec.generation);
      let error: Sha224dError;
      try {
        const reply = await this.attempt(spec, jsonText, auth, requestId, () => {
          bodyOpened = true;
        });
        if (reply.status >= 200 && reply.status < 300) return reply;
        error = errorFromResponse(reply.status, reply.headers, reply.body);
      } catch (err) {
        if (err instanceof Sha224dError) throw err;
        if (spec.signal?.aborted) throw abortReason(spec.signal);
        error = new NetworkError({ code: 'NETWORK_ERROR', message: `request to ${spec.path} failed: ${describe(err)}`, cause: err });
      }
      // A refreshed token is tried at once, outside the retry budget: the first 401 says the token is stale.
      if (error.status === 401 && this.options.authorizer.refreshable && !refreshed && canResend()) {
        refreshed = true;
        this.options.authorizer.invalidate(auth.token);
        continue;
      }
      // A JOB_TIMEOUT names a job that goes on: sending again would start a second one (wait for it instead).
      const jobRunning = error.code === 'JOB_TIMEOUT' && error.jobId !== undefined;
      const transient = !jobRunning && (error instanceof NetworkError || (error.status !== undefined && RETRY_STATUSES.has(error.status)));
      const delay = transient && spec.retryable && canResend() ? retryDelayMs(retry, retries, error.retryAfter) : undefined;
      if (delay === undefined) throw error;
      retries += 1;
      this.options.onRetry?.({ operation: spec.operation, retry: retries, delayMs: delay, status: error.status, error });
      await sleep(delay, spec.signal);
    }
  }

  private async attempt(
    spec: RequestSpec,
    jsonText: string | undefined,
    auth: { name: string; value: string },
    requestId: string,
    onOpen: () => void,
  ): Promise<Reply> {
    const headers = new Headers({ accept: 'application/json', 'x-request-id': requestId, ...spec.headers });
    headers.set(auth.name, auth.value);
    // Redirects are never followed: X-API-Key would go wherever they point (fetch only strips
    // Authorization across origins). A streamed body uses 'error' rather than 'manual': with any other
    // mode Node's fetch keeps every chunk sent in case it must re-send the body after a redirect
    // (measured: 512 MiB upload, RSS 623 MB with 'manual', 99 MB with 'error'; docs/decisions.md).
    const init: StreamingInit = { method: spec.method, headers, redirect: spec.body === undefined ? 'manual' : 'error' };
    if (jsonText !== undefined) {
      headers.set('content-type', 'application/json');
      init.body = jsonText;
    } else if (spec.body !== undefined) {
      headers.set('content-type', spec.body.contentType);
      if (spec.body.length !== undefined) headers.set('content-length', String(spec.body.length));
      onOpen();
      if (this.options.preferBlobBodies && spec.body.blob !== undefined) {
        init.body = spec.body.blob();
      } else {
        init.body = spec.body.open();
        init.duplex = 'half';
      }
    }
    const { signal, dispose } = attemptSignal(spec.signal, spec.timeoutMs);
    init.signal = signal;
    try {
      const response = await this.options.fetch(this.url(spec.path, spec.query), init);
      if (spec.rawResponse === true && response.ok) return { status: response.status, headers: response.headers, body: response.body };
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: parseBody(text, response) };
    } catch (err) {
      if (signal.aborted && !spec.signal?.aborted) {
        throw new NetworkError({ code: 'TIMEOUT', message: `no answer to ${spec.path} within ${spec.timeoutMs} ms`, cause: err });
      }
      if (err instanceof Error && err.cause instanceof Error && /redirect/i.test(err.cause.message)) {
        throw new ApiError({
          code: 'UNEXPECTED_RESPONSE',
          message: `the service redirected ${spec.path}; use the address it redirects to as baseUrl`,
          cause: err,
        });
      }
      throw err;
    } finally {
      dispose();
    }
  }
}

function parseBody(text: string, response: Response): unknown {
  if (response.type === 'opaqueredirect') return undefined;
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (response.ok) {
      throw new ApiError({
        code: 'UNEXPECTED_RESPONSE',
        message: `HTTP ${response.status} with a body that is not JSON`,
        status: response.status,
        requestId: response.headers.get('x-request-id') ?? undefined,
      });
    }
    return text;
  }
}

/** The caller's signal and a per-attempt timeout as one signal (AbortSignal.any is not in every runtime). */
function attemptSignal(outer: AbortSignal | undefined, timeoutMs: number | undefined): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
  return {
    signal: controller.signal,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}
