import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { BlobStore } from '../../shared/blob/types.js';
import { fileTooLarge } from '../../shared/blob/byte-limit.js';
import { ServiceError, invalidInput } from '../../shared/errors.js';
import type { BlobRef } from '../../shared/jobs/contracts.js';
import { detachedSource } from './detached-source.js';

export interface MultipartFile {
  blob: BlobRef;
  filename: string;
  fields: Record<string, string>;
}

export interface MultipartOptions {
  blobs: BlobStore;
  key: string;
  maxBytes: number;
  /** Name of the form field holding the file (SPEC: `file`). */
  fileField?: string;
}

const FIELD_LIMITS = { fields: 20, fieldSize: 4096, files: 5, parts: 30 } as const;

/**
 * Parse multipart/form-data (busboy), streaming the `file` part into the blob store while its
 * bytes are counted; other fields are collected as strings. Resolves once the whole body is read
 * and the blob is stored; on any failure the stored blob is removed.
 */
export function receiveMultipartFile(req: IncomingMessage, options: MultipartOptions): Promise<MultipartFile> {
  const fileField = options.fileField ?? 'file';
  const declared = Number(req.headers['content-length'] ?? NaN);
  // Multipart framing adds a few hundred bytes; a declared length far past the limit is refused before reading.
  if (Number.isFinite(declared) && declared > options.maxBytes + 64 * 1024) return Promise.reject(fileTooLarge(options.maxBytes));

  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: FIELD_LIMITS });
  } catch {
    return Promise.reject(invalidInput('file', 'Request must be multipart/form-data with a file field named "file"'));
  }

  return new Promise<MultipartFile>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let upload: Promise<BlobRef> | undefined;
    let filename = '';
    let settled = false;

    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      if (upload) void upload.then((blob) => options.blobs.delete(blob.key)).catch(() => undefined);
      reject(err instanceof Error ? err : new Error(String(err)));
    };

    parser.on('file', (name, stream, info) => {
      if (name !== fileField || upload) {
        stream.resume();
        return;
      }
      filename = info.filename ?? '';
      upload = options.blobs.put(options.key, detachedSource(req, stream), { maxBytes: options.maxBytes });
      upload.catch(fail);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(invalidInput(name, `multipart field ${name} is too long`));
      else fields[name] = value;
    });
    parser.on('partsLimit', () => fail(invalidInput('body', 'too many multipart parts')));
    parser.on('fieldsLimit', () => fail(invalidInput('body', 'too many multipart fields')));
    parser.on('error', (err) => fail(new ServiceError('INVALID_INPUT', { message: 'Malformed multipart body', details: 'field: body', cause: err })));
    parser.on('close', () => {
      if (settled) return;
      if (!upload) {
        fail(invalidInput(fileField, `multipart field "${fileField}" (a file) is required`));
        return;
      }
      upload.then(
        (blob) => {
          if (settled) return;
          settled = true;
          resolve({ blob, filename, fields });
        },
        fail,
      );
    });
    req.pipe(parser);
  });
}
