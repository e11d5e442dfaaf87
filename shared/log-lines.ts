/**
 * Log lines written during one turn of the event loop are handed to the destination as one string
 * (docs/decisions.md, "Log lines stay asynchronous and complete"). Why: pino's asynchronous destination (SonicBoom) appends
 * each line to its pending string and measures that whole string's UTF-8 length on every write,
 * flattening it: under load, when many lines wait for one write to finish, that was about a tenth
 * of all the memory a request allocated. Here a line costs an array push; the destination sees one
 * write per turn. Nothing is lost on exit: pending lines are handed over and flushed synchronously
 * (also on `fatal`, which pino flushes through `flushSync`).
 */
import fs from 'node:fs';

export interface LineTarget {
  write(chunk: string): unknown;
  flushSync(): void;
  /** The file descriptor lines are written to, for the synchronous hand-over on exit. */
  readonly fd?: number;
}

/**
 * Writes all of `text` to `fd` before returning. A pipe or terminal set non-blocking refuses a
 * write it cannot take yet (EAGAIN) or takes part of it: retry the rest after a short pause.
 */
function writeAllSync(fd: number, text: string): void {
  let rest = Buffer.from(text);
  while (rest.length > 0) {
    try {
      rest = rest.subarray(fs.writeSync(fd, rest));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      Atomics.wait(PAUSE, 0, 0, 1);
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

const open = new Set<LineBatch>();
let exitHooked = false;

function flushAllSync(): void {
  for (const batch of open) {
    try {
      batch.flushSync();
    } catch {
      // A destination already closed cannot take the lines; exiting must not fail for it.
    }
  }
}

export class LineBatch {
  private pending: string[] = [];
  private scheduled = false;

  constructor(private readonly target: LineTarget) {
    open.add(this);
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', flushAllSync);
    }
  }

  write(line: string): boolean {
    this.pending.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.handOverLater);
    }
    return true;
  }

  /**
   * Write everything out before returning. The pending lines go straight to the descriptor, after
   * what the destination already holds: handed to it, they would start an asynchronous write that
   * an exiting process cuts off mid-line.
   */
  flushSync(): void {
    const { fd } = this.target;
    if (fd === undefined || fd < 0) {
      this.handOver();
      this.target.flushSync();
      return;
    }
    const lines = this.pending;
    this.pending = [];
    this.target.flushSync();
    if (lines.length > 0) writeAllSync(fd, lines.join(''));
  }

  private readonly handOverLater = (): void => {
    this.scheduled = false;
    this.handOver();
  };

  private handOver(): void {
    const lines = this.pending;
    if (lines.length === 0) return;
    this.pending = [];
    this.target.write(lines.length === 1 ? lines[0]! : lines.join(''));
  }
}
