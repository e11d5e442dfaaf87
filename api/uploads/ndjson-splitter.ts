/**
 * An NDJSON body cut into lines as bytes, piece by piece as it arrives, never buffered whole:
 * 413 once the body passes `maxBodyBytes` or the unfinished line passes `maxLineBytes`
 * characters. Each complete line is handed over as a range of a buffer, so no string and no
 * promise is made per line (docs/decisions.md "Bulk jobs").
 */
import { StringDecoder } from 'node:string_decoder';
import { ServiceError } from '../../shared/errors.js';

const NEWLINE = 0x0a;

export type LineSink = (bytes: Buffer, start: number, end: number) => void;

export class NdjsonSplitter {
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private received = 0;

  constructor(
    private readonly limits: { maxLineBytes: number; maxBodyBytes: number },
    private readonly onLine: LineSink,
  ) {}

  /** One piece of the body: its complete lines go to `onLine`, the rest waits for the next piece. */
  push(piece: Buffer): void {
    this.received += piece.length;
    if (this.received > this.limits.maxBodyBytes)
      throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `the plan allows ${this.limits.maxBodyBytes} bytes of bulk input` });
    let start = 0;
    let end = piece.indexOf(NEWLINE);
    if (end !== -1 && this.tailBytes > 0) {
      const line = Buffer.concat([...this.tail, piece.subarray(0, end)]);
      this.tail = [];
      this.tailBytes = 0;
      this.onLine(line, 0, line.length);
      start = end + 1;
      end = piece.indexOf(NEWLINE, start);
    }
    for (; end !== -1; end = piece.indexOf(NEWLINE, start)) {
      this.onLine(piece, start, end);
      start = end + 1;
    }
    if (start < piece.length) {
      // A copy: the stream may hand out views of a buffer it reuses.
      this.tail.push(Buffer.from(piece.subarray(start)));
      this.tailBytes += piece.length - start;
      this.checkTail();
    }
  }

  /** The body ended: a last line without its newline is a line too. */
  end(): void {
    if (this.tailBytes === 0) return;
    const line = Buffer.concat(this.tail);
    this.tail = [];
    this.tailBytes = 0;
    this.onLine(line, 0, line.length);
  }

  /**
   * The bound counts the characters the unfinished line decodes to (an incomplete last sequence
   * not yet counted), as the line reader before this one did; they are never more than its bytes,
   * so only a tail of more bytes than the bound is decoded to count them.
   */
  private checkTail(): void {
    if (this.tailBytes <= this.limits.maxLineBytes) return;
    const decoded = new StringDecoder('utf8').write(Buffer.concat(this.tail)).length;
    if (decoded > this.limits.maxLineBytes)
      throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `a line is longer than ${this.limits.maxLineBytes} bytes` });
  }
}
