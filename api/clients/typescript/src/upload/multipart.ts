/**
 * `multipart/form-data` (RFC 7578) built as a stream: the text fields first, then the part named
 * `file`, whose bytes flow from the source as the connection takes them. Its length is exact when
 * the source's size is known, so the service can refuse an oversized file before reading it.
 */
import type { BodySource } from '../transport.js';
import { concatenated, observed, type UploadProgress, type UploadSource } from './source.js';

export type FieldValue = string | number | undefined;

function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  return Array.from(buffer, (b) => b.toString(16).padStart(2, '0')).join('');
}

// WHATWG "multipart/form-data encoding algorithm": escape quote, CR and LF in names.
function quoted(value: string): string {
  return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * An ASCII `filename`, plus the UTF-8 name as `filename*` (RFC 7578 §4.2, RFC 5987) when it has
 * other characters: the service's parser reads plain parameters as Latin-1.
 */
function filenameParameters(name: string): string {
  if (/^[\x20-\x7e]*$/.test(name)) return `filename="${quoted(name)}"`;
  const fallback = name.replace(/[^\x20-\x7e]/g, '_');
  return `filename="${quoted(fallback)}"; filename*=UTF-8''${rfc5987(name)}`;
}

function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function constant(bytes: Uint8Array): () => ReadableStream<Uint8Array> {
  return () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
}

/** Counts the caller's bytes as they are taken and reports them. */
export function progressReporter(source: UploadSource, onProgress: ((p: UploadProgress) => void) | undefined): (bytes: number) => void {
  let sent = 0;
  return (bytes) => {
    sent += bytes;
    onProgress?.({ sent, total: source.size });
  };
}

export function multipartBody(
  source: UploadSource,
  fields: Record<string, FieldValue>,
  onProgress?: (p: UploadProgress) => void,
): BodySource {
  const boundary = `sha224d-${randomHex(16)}`;
  const encoder = new TextEncoder();
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${filenameParameters(source.filename)}\r\n`;
  head += 'Content-Type: application/octet-stream\r\n\r\n';
  const headBytes = encoder.encode(head);
  const tailBytes = encoder.encode(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: source.size === undefined ? undefined : headBytes.byteLength + source.size + tailBytes.byteLength,
    replayable: source.replayable,
    open: () => {
      // A fresh count per attempt: a retried upload reports from zero again.
      const report = progressReporter(source, onProgress);
      return concatenated([constant(headBytes), () => observed(source.open(), report), constant(tailBytes)]);
    },
    blob: wholeBlob(source, onProgress, (file) => new Blob([headBytes, file, tailBytes])),
  };
}

/**
 * The body as one Blob (composed without copying the file's bytes), for browsers; progress is
 * reported as the Blob is handed over, since fetch reports nothing while it sends.
 */
function wholeBlob(
  source: UploadSource,
  onProgress: ((p: UploadProgress) => void) | undefined,
  compose: (file: Blob) => Blob,
): (() => Blob) | undefined {
  const { blob } = source;
  if (blob === undefined) return undefined;
  return () => {
    onProgress?.({ sent: 0, total: source.size });
    const body = compose(blob());
    onProgress?.({ sent: source.size ?? 0, total: source.size });
    return body;
  };
}

/** `application/octet-stream`, sent chunked (docs/api.md "v2 endpoints"). */
export function rawBody(source: UploadSource, onProgress?: (p: UploadProgress) => void): BodySource {
  return {
    contentType: 'application/octet-stream',
    replayable: source.replayable,
    open: () => observed(source.open(), progressReporter(source, onProgress)),
    blob: wholeBlob(source, onProgress, (file) => file),
  };
}
