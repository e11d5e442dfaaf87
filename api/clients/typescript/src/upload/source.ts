/**
 * The bytes of an upload, read piece by piece so an upload of any size never sits in memory
 * whole. A path, a Blob or bytes can be read again from the start (so a failed attempt can be
 * retried); a stream can be read once.
 */
import type { Platform, UploadSource } from '../platform.js';

export type { UploadSource } from '../platform.js';

/**
 * What an upload accepts: a file path (Node), a Blob or File, a web ReadableStream, a Node
 * Readable or any async iterable of byte chunks, or bytes already in memory.
 */
export type UploadInput = string | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string> | Uint8Array | ArrayBuffer;

export interface SourceOptions {
  /** Overrides the name taken from a path or File ("upload" otherwise). */
  filename?: string;
  /** The byte count of a stream, when the caller knows it (decides /v2/file vs /v2/stream). */
  size?: number;
}

/** Bytes read from a path per piece (Node): large enough to be cheap per call, small enough to stay flat. */
export const PIECE_BYTES = 256 * 1024;

export async function toUploadSource(input: UploadInput, options: SourceOptions, platform: Platform): Promise<UploadSource> {
  const named = (source: UploadSource): UploadSource =>
    options.filename === undefined ? source : { ...source, filename: options.filename };
  if (typeof input === 'string') {
    if (platform.openPath === undefined) throw new TypeError('uploading from a path needs Node; pass a Blob or a ReadableStream');
    return named(await platform.openPath(input));
  }
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    const name = (input as { name?: unknown }).name;
    return named({
      filename: typeof name === 'string' && name !== '' ? name : 'upload',
      size: input.size,
      replayable: true,
      open: () => input.stream(),
      blob: () => input,
    });
  }
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) {
    const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
    // slice(): a Blob part must be backed by a plain ArrayBuffer; the copy is made only in browsers.
    return named({
      filename: 'upload',
      size: bytes.byteLength,
      replayable: true,
      open: () => bytesStream(bytes),
      blob: () => new Blob([bytes.slice()]),
    });
  }
  if (typeof ReadableStream !== 'undefined' && input instanceof ReadableStream) {
    return named(oneShot('upload', options.size, () => input));
  }
  if (isAsyncIterable(input)) {
    const path = (input as { path?: unknown }).path;
    const filename = typeof path === 'string' ? (path.split(/[\\/]/).pop() ?? 'upload') : 'upload';
    return named(oneShot(filename, options.size, () => iterableStream(input)));
  }
  throw new TypeError('upload source must be a path, Blob, ReadableStream, async iterable of bytes, Uint8Array or ArrayBuffer');
}

function oneShot(filename: string, size: number | undefined, make: () => ReadableStream<Uint8Array>): UploadSource {
  let opened = false;
  return {
    filename,
    size,
    replayable: false,
    open() {
      if (opened) throw new Error('this upload source is a stream and can be read only once');
      opened = true;
      return make();
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array | string> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

function bytesStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset >= bytes.byteLength) return controller.close();
        const end = Math.min(bytes.byteLength, offset + PIECE_BYTES);
        controller.enqueue(bytes.subarray(offset, end));
        offset = end;
      },
    },
    { highWaterMark: 0 },
  );
}

/** Pulls one chunk from the iterator each time the consumer asks: backpressure reaches the producer. */
export function iterableStream(iterable: AsyncIterable<Uint8Array | string>): ReadableStream<Uint8Array> {
  const iterator = iterable[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next: IteratorResult<Uint8Array | string, unknown> = await iterator.next();
        if (next.done) return controller.close();
        controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
      },
      async cancel(reason) {
        await iterator.return?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Progress of an upload: bytes of the caller's data handed to the connection so far. */
export interface UploadProgress {
  sent: number;
  /** Undefined when the size of a stream is not known. */
  total: number | undefined;
}

/** `stream`, reporting each chunk as it is taken by the consumer. */
export function observed(stream: ReadableStream<Uint8Array>, onChunk: (bytes: number) => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        onChunk(value.byteLength);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** The streams of `parts`, one after another, each opened only when the previous one ends. */
export function concatenated(parts: Array<() => ReadableStream<Uint8Array>>): ReadableStream<Uint8Array> {
  let index = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          if (reader === undefined) {
            const next = parts[index++];
            if (next === undefined) return controller.close();
            reader = next().getReader();
          }
          const { done, value } = await reader.read();
          if (!done) return controller.enqueue(value);
          reader = undefined;
        }
      },
      cancel: (reason) => reader?.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
