/**
 * The items of an NDJSON bulk body, line by line, into chunk lines (docs/decisions.md "Bulk
 * jobs"): a line already in the chunk's text (`PlainItemLine`) is copied as it is; any other is
 * decoded, checked by `parseItemLine` (400 naming the line) and written with JSON.stringify, as
 * every line once was, so a chunk holds the same bytes either way. Blank lines count as lines
 * and hold nothing. The plan's item and byte limits are checked after each item's own checks.
 */
import { ServiceError } from '../../shared/errors.js';
import { parseItemLine } from './bulk-items.js';
import type { ChunkLineBatch } from './chunk-line-batch.js';
import { PlainItemLine } from './plain-item-line.js';

const UTF8_SUFFIX = ',"encoding":"utf8"}';

export class BulkItemIntake {
  private lineNumber = 0;
  private items = 0;
  private bytes = 0;
  private readonly plain = new PlainItemLine();

  constructor(
    private readonly limits: { maxItems: number; maxBytes: number },
    private readonly out: ChunkLineBatch,
  ) {}

  /** One line of the body, without its newline: `source[start, end)`. */
  line(source: Buffer, start: number, end: number): void {
    this.lineNumber++;
    if (this.plain.scan(source, start, end)) {
      this.count(this.plain.bytes);
      if (this.plain.hasEncoding) this.out.copy(source, start, end);
      else this.out.copy(source, start, end - 1, UTF8_SUFFIX);
      return;
    }
    const text = source.toString('utf8', start, end);
    if (text.trim().length === 0) return;
    const { item, bytes } = parseItemLine(text, this.lineNumber);
    this.count(bytes);
    this.out.text(JSON.stringify(item));
  }

  private count(itemBytes: number): void {
    this.bytes += itemBytes;
    if (this.items >= this.limits.maxItems)
      throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `the plan allows ${this.limits.maxItems} items in a bulk job` });
    if (this.bytes > this.limits.maxBytes)
      throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `the plan allows ${this.limits.maxBytes} bytes of item data in a bulk job` });
    this.items++;
  }
}
