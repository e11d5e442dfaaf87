/**
 * /v2/bulk (docs/api.md "Bulk jobs"): one job of up to millions of items, a list of URLs or a
 * bucket. Items are sent as an NDJSON stream (never held whole), results read back as a stream of
 * lines in input order.
 */
import type { ClientContext, RequestOptions } from './context.js';
import { getJson } from './requests.js';
import type { BulkJsonRequest, BulkStatus } from './types.js';
import { sleep } from './retry.js';

export interface BulkItem {
  id: string;
  data: string;
  encoding?: 'utf8' | 'hex' | 'base64';
}

/** One result line: the item's digest and size, or its error. */
export type BulkResultLine =
  { id: string; hash: string; bytes: number } | { id: string; error: { code: string; message: string; details?: string } };

/** Items as objects, or NDJSON text already made (a file's bytes): produced on demand, streamed. */
export type BulkItems = Iterable<BulkItem> | AsyncIterable<BulkItem> | (() => ReadableStream<Uint8Array>);

export interface BulkWaitOptions extends RequestOptions {
  /** Between two status reads; default 1000 ms. */
  intervalMs?: number;
  /** Give up after this long (throws); default none. */
  waitTimeoutMs?: number;
  /** Called with each status read. */
  onProgress?: (status: BulkStatus) => void;
}

const encoder = new TextEncoder();

function ndjsonStream(items: Iterable<BulkItem> | AsyncIterable<BulkItem>): ReadableStream<Uint8Array> {
  const iterator = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // About 64 KiB per piece: one line per enqueue would cost a stream turn per item.
      let text = '';
      while (text.length < 65_536) {
        const next = await iterator.next();
        if (next.done === true) {
          if (text !== '') controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += `${JSON.stringify(next.value)}\n`;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}

export class BulkApi {
  constructor(private readonly context: ClientContext) {}

  /** POST /v2/bulk: items streamed as NDJSON, or `{source: 'urls' | 's3', …}`. Answers the job's status (202). */
  async create(source: BulkItems | BulkJsonRequest, options: RequestOptions = {}): Promise<BulkStatus> {
    if (typeof source === 'object' && source !== null && 'source' in source) {
      // Not retried: a second POST would start a second job.
      const reply = await this.context.transport.request({
        operation: 'v2.bulk.create',
        method: 'POST',
        path: '/v2/bulk',
        generation: 'v2',
        json: source,
        retryable: false,
        timeoutMs: options.timeoutMs ?? this.context.timeoutMs,
        signal: options.signal,
      });
      return reply.body as BulkStatus;
    }
    const open = typeof source === 'function' ? source : () => ndjsonStream(source);
    const reply = await this.context.transport.request({
      operation: 'v2.bulk.create',
      method: 'POST',
      path: '/v2/bulk',
      generation: 'v2',
      body: { contentType: 'application/x-ndjson', replayable: false, open },
      retryable: false,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      signal: options.signal,
    });
    return reply.body as BulkStatus;
  }

  /** GET /v2/bulk/{id}: progress, and the summary once finished. */
  get(id: string, options?: RequestOptions): Promise<BulkStatus> {
    return getJson(this.context, 'v2.bulk.get', `/v2/bulk/${encodeURIComponent(id)}`, options);
  }

  /** DELETE /v2/bulk/{id}: chunks not yet run are skipped. */
  async cancel(id: string, options: RequestOptions = {}): Promise<BulkStatus> {
    const reply = await this.context.transport.request({
      operation: 'v2.bulk.cancel',
      method: 'DELETE',
      path: `/v2/bulk/${encodeURIComponent(id)}`,
      generation: 'v2',
      retryable: true,
      timeoutMs: options.timeoutMs ?? this.context.timeoutMs,
      signal: options.signal,
    });
    return reply.body as BulkStatus;
  }

  /** Reads the status until the job is completed or cancelled. */
  async wait(id: string, options: BulkWaitOptions = {}): Promise<BulkStatus> {
    const deadline = options.waitTimeoutMs === undefined ? Infinity : Date.now() + options.waitTimeoutMs;
    for (;;) {
      const status = await this.get(id, options);
      options.onProgress?.(status);
      if (status.status === 'completed' || status.status === 'cancelled') return status;
      if (Date.now() > deadline) throw new Error(`bulk job ${id} did not finish within ${options.waitTimeoutMs} ms`);
      await sleep(options.intervalMs ?? 1000, options.signal);
    }
  }

  /** GET /v2/bulk/{id}/results: the raw NDJSON stream, in input order. */
  async resultsStream(id: string, options: Pick<RequestOptions, 'signal'> = {}): Promise<ReadableStream<Uint8Array>> {
    const reply = await this.context.transport.request({
      operation: 'v2.bulk.results',
      method: 'GET',
      path: `/v2/bulk/${encodeURIComponent(id)}/results`,
      generation: 'v2',
      rawResponse: true,
      retryable: true,
      signal: options.signal,
    });
    return reply.body as ReadableStream<Uint8Array>;
  }

  /** The result lines, parsed one by one as they arrive. */
  async *results(id: string, options: Pick<RequestOptions, 'signal'> = {}): AsyncGenerator<BulkResultLine> {
    const decoder = new TextDecoder();
    let pending = '';
    const reader = (await this.resultsStream(id, options)).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
        const lines = pending.split('\n');
        pending = done ? '' : (lines.pop() ?? '');
        for (const line of lines) if (line !== '') yield JSON.parse(line) as BulkResultLine;
        if (done) return;
      }
    } finally {
      reader.releaseLock();
    }
  }
}
