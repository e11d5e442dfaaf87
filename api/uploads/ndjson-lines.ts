/**
 * An NDJSON body as lines, read as it arrives: no line may pass `maxLineBytes` and the body may
 * not pass `maxBodyBytes` (413 the moment it does), so neither a line without end nor an endless
 * body is ever buffered.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { ServiceError } from '../../shared/errors.js';

export async function* ndjsonLines(body: Readable, limits: { maxLineBytes: number; maxBodyBytes: number }): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let received = 0;
  for await (const piece of body as AsyncIterable<Buffer>) {
    received += piece.length;
    if (received > limits.maxBodyBytes)
      throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `the plan allows ${limits.maxBodyBytes} bytes of bulk input` });
    pending += decoder.write(piece);
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
      yield pending.slice(start, end);
      start = end + 1;
    }
    pending = pending.slice(start);
    if (pending.length > limits.maxLineBytes)
      throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `a line is longer than ${limits.maxLineBytes} bytes` });
  }
  pending += decoder.end();
  if (pending.length > 0) yield pending;
}
