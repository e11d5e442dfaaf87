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
  /** The unfinished line: `tail[0, tailBytes)`, one buffer grown as pieces arrive. */
  private tail = Buffer.alloc(0);
  private tailBytes = 0;
  private received = 0;
  /** Counts the unfinished line's characters once it passes the bound in bytes (checkTail). */
  private tailDecoder: StringDecoder | undefined;
  private tailCharacters = 0;

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
      const line = Buffer.concat([this.tail.subarray(0, this.tailBytes), piece.subarray(0, end)]);
      this.clearTail();
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
      const rest = piece.subarray(start);
      this.appendTail(rest);
      this.checkTail(rest);
    }
  }

  /** The body ended: a last line without its newline is a line too. */
  end(): void {
    if (this.tailBytes === 0) return;
    const line = Buffer.from(this.tail.subarray(0, this.tailBytes));
    this.clearTail();
    this.onLine(line, 0, line.length);
  }

  private appendTail(rest: Buffer): void {
    if (this.tailBytes + rest.length > this.tail.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.tail.length, this.tailBytes + rest.length, 256));
      this.tail.copy(grown, 0, 0, this.tailBytes);
      this.tail = grown;
    }
    this.tailBytes += rest.copy(this.tail, this.tailBytes);
  }

  private clearTail(): void {
    this.tail = Buffer.alloc(0);
    this.tailBytes = 0;
    this.tailDecoder = undefined;
    this.tailCharacters = 0;
  }

  /**
   * The bound counts the characters the unfinished line decodes to (an incomplete last sequence
   * not yet counted), as the line reader before this one did; they are never more than its bytes,
   * so they are counted only once the tail has more bytes than the bound, and from then on piece
   * by piece (`added`), so a long line sent in tiny pieces is decoded once, not once per piece.
   */
  private checkTail(added: Buffer): void {
    if (this.tailBytes <= this.limits.maxLineBytes) return;
    if (this.tailDecoder === undefined) {
      this.tailDecoder = new StringDecoder('utf8');
      this.tailCharacters = this.tailDecoder.write(this.tail.subarray(0, this.tailBytes)).length;
    } else this.tailCharacters += this.tailDecoder.write(added).length;
    if (this.tailCharacters > this.limits.maxLineBytes)
      throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `a line is longer than ${this.limits.maxLineBytes} bytes` });
  }
}
