import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import busboy from 'busboy';
import type { BlobSink } from '../../shared/blob/types.js';
import { fileTooLarge } from '../../shared/blob/byte-limit.js';
import { ServiceError, invalidInput, isServiceError } from '../../shared/errors.js';
import type { BlobRef } from '../../shared/jobs/contracts.js';
import { meterUpload } from '../http/upload-meter.js';
import { assertIdentityEncoding, takeBody, type RequestBody } from './request-body.js';
import { storeOrCleanUp } from './store-upload.js';

export interface MultipartFile {
  blob: BlobRef;
  filename: string;
  fields: Record<string, string>;
  /** SHA-224 over the file's bytes and the other fields (idempotency fingerprints), when asked for. */
  digest?: string;
}

export interface MultipartOptions {
  /** The blob store, or a sink that only hashes (api/uploads/digest-sink.ts). */
  blobs: BlobSink;
  key: string;
  maxBytes: number;
  drainMaxBytes: number;
  /** Name of the form field holding the file (docs/api.md "Endpoints": `file`). */
  fileField?: string;
  /** Compute `digest`. The raw body cannot serve: clients pick a new random boundary per request. */
  digest?: boolean;
}

const FIELD_LIMITS = { fields: 20, fieldSize: 4096, files: 5, parts: 30 } as const;
/** Multipart framing adds a few hundred bytes; a declared length past the limit by more is refused before reading. */
const FRAMING_SLACK_BYTES = 64 * 1024;

function malformed(cause: unknown): ServiceError {
  return new ServiceError('INVALID_INPUT', { message: 'Malformed multipart body', details: 'field: body', cause });
}

/**
 * Parse multipart/form-data (busboy), streaming exactly one `file` part into the blob store while
 * its bytes are counted; other fields are collected as strings. Filenames are UTF-8 (RFC 7578
 * §4.2). Resolves once the whole body is read and the blob is stored. Any failure (malformed or
 * truncated body, a second file part, too large, the client gone) rejects with a ServiceError
 * only after the stored bytes are deleted and the rest of the body is being discarded.
 */
export function receiveMultipartFile(req: IncomingMessage, res: ServerResponse, options: MultipartOptions): Promise<MultipartFile> {
  const body = takeBody(req, res, { drainMaxBytes: options.drainMaxBytes });
  meterUpload(res, () => body.received());
  return storeOrCleanUp(body, options.blobs, options.key, (track) => parseInto(req, body, options, track));
}

function parseInto(
  req: IncomingMessage,
  body: RequestBody,
  options: MultipartOptions,
  track: (upload: Promise<BlobRef>) => void,
): Promise<MultipartFile> {
  const fileField = options.fileField ?? 'file';
  assertIdentityEncoding(req);
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > options.maxBytes + FRAMING_SLACK_BYTES) throw fileTooLarge(options.maxBytes);
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: FIELD_LIMITS, defParamCharset: 'utf8' });
  } catch {
    throw invalidInput(fileField, `Request must be multipart/form-data with a file field named "${fileField}"`);
  }

  return new Promise<MultipartFile>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let upload: Promise<BlobRef> | undefined;
    let tap: DigestTap | undefined;
    let filename = '';
    let settled = false;
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      reject(isServiceError(err) ? err : malformed(err));
    };

    parser.on('file', (name, file, info) => {
      // Observed through the blob store's pipeline; this keeps an early one from going unhandled.
      file.on('error', () => undefined);
      if (name !== fileField) {
        file.resume();
        return;
      }
      if (upload) {
        file.resume();
        fail(invalidInput(fileField, `multipart field "${fileField}" must hold exactly one file; a second one was sent`));
        return;
      }
      filename = info.filename ?? '';
      let source: Readable = file;
      if (options.digest) {
        tap = new DigestTap();
        source = pipeline(file, tap, () => undefined);
      }
      upload = options.blobs.put(options.key, source, { maxBytes: options.maxBytes });
      track(upload);
      upload.catch(fail);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(invalidInput(name, `multipart field ${name} is too long`));
      else fields[name] = value;
    });
    parser.on('partsLimit', () => fail(invalidInput('body', 'too many multipart parts')));
    parser.on('filesLimit', () => fail(invalidInput('body', 'too many multipart files')));
    parser.on('fieldsLimit', () => fail(invalidInput('body', 'too many multipart fields')));
    // busboy reports a truncated or malformed body here before the file part's store fails.
    parser.on('error', fail);
    pipeline(body.stream, parser, (err) => {
      if (err) return fail(err);
      if (settled) return;
      if (!upload) return fail(invalidInput(fileField, `multipart field "${fileField}" (a file) is required`));
      upload.then((blob) => {
        if (settled) return;
        settled = true;
        resolve({ blob, filename, fields, digest: tap?.digestWith(fields) });
      }, fail);
    });
  });
}

/** SHA-224 of the bytes passing through, then of the form's other fields in name order. */
class DigestTap extends Transform {
  private readonly hash = createHash('sha224');

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    done(null, chunk);
  }

  digestWith(fields: Record<string, string>): string {
    const sorted = Object.keys(fields)
      .sort()
      .map((name) => [name, fields[name]]);
    return this.hash.update(`\n${JSON.stringify(sorted)}`).digest('hex');
  }
}
