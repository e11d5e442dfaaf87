/**
 * Log lines written during one turn of the event loop are handed to the destination as one string
 * (docs/decisions.md, "Log lines stay asynchronous and complete"). Why: pino's asynchronous destination (SonicBoom) appends
 * each line to its pending string and measures that whole string's UTF-8 length on every write,
 * flattening it: under load, when many lines wait for one write to finish, that was about a tenth
 * of all the memory a request allocated. Here a line costs an array push; the destination sees one
 * write per turn. Nothing is lost on exit: pending lines are handed over and flushed synchronously
 * (also on `fatal`, which pino flushes through `flushSync`).
 */
export interface LineTarget {
  write(chunk: string): unknown;
  flushSync(): void;
}

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

  /** Hand pending lines over and write everything out before returning. */
  flushSync(): void {
    this.handOver();
    this.target.flushSync();
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
