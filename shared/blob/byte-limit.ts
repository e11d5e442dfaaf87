import { Transform, type TransformCallback } from 'node:stream';
import { ServiceError } from '../errors.js';

/**
 * Counts bytes as they stream and fails with FILE_TOO_LARGE the moment the count passes
 * `maxBytes`, so an oversized upload is refused without being stored whole.
 */
export class ByteLimit extends Transform {
  bytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(fileTooLarge(this.maxBytes));
      return;
    }
    done(null, chunk);
  }
}

export function fileTooLarge(maxBytes: number): ServiceError {
  return new ServiceError('FILE_TOO_LARGE', {
    details: `maximum size is ${maxBytes} bytes`,
    extra: { max_bytes: maxBytes },
  });
}
