/**
 * The young-generation collections of the server during one subject's runs, read from its
 * `--trace-gc-nvp` log (test/bench/fleet.ts): how much each scavenge kept alive and promoted, and
 * the pauses. Logging's added GC (docs/proving.md "Measured figures") is these against the plain
 * load's: a request that waits for its batch across a collection is copied, then promoted.
 */
import fs from 'node:fs';

export interface GcTally {
  scavenges: number;
  scavengeMs: number;
  survivedBytes: number;
  promotedBytes: number;
  markCompacts: number;
  markCompactMs: number;
}

export const emptyTally = (): GcTally => ({
  scavenges: 0,
  scavengeMs: 0,
  survivedBytes: 0,
  promotedBytes: 0,
  markCompacts: 0,
  markCompactMs: 0,
});

const field = (line: string, name: string): number => Number(new RegExp(` ${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);

/** Adds the collections `logFile` traced from byte `from` on to `tally`. */
export function tallyGcSince(logFile: string, from: number, tally: GcTally): void {
  const fd = fs.openSync(logFile, 'r');
  let text: string;
  try {
    const buf = Buffer.alloc(Math.max(0, fs.fstatSync(fd).size - from));
    fs.readSync(fd, buf, 0, buf.length, from);
    text = buf.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
  for (const line of text.split('\n')) {
    if (!line.includes(' gc=')) continue;
    if (line.includes(' gc=s ')) {
      tally.scavenges++;
      tally.scavengeMs += field(line, 'pause');
      tally.survivedBytes += field(line, 'new_space_survived');
      tally.promotedBytes += field(line, 'promoted');
    } else {
      tally.markCompacts++;
      tally.markCompactMs += field(line, 'pause');
    }
  }
}

/** One line: scavenges' mean survivors and promotion, and the pauses, per request. */
export function formatTally(t: GcTally, requests: number): string {
  const mb = (bytes: number): string => (t.scavenges === 0 ? '0' : (bytes / t.scavenges / 1e6).toFixed(2));
  const perRequest = (ms: number): string => ((1000 * ms) / Math.max(1, requests)).toFixed(1);
  return (
    `${t.scavenges} scavenges keeping ${mb(t.survivedBytes)} MB alive and promoting ${mb(t.promotedBytes)} MB each, ` +
    `${perRequest(t.scavengeMs)} µs of scavenge pause per request; ${t.markCompacts} mark-compacts, ${perRequest(t.markCompactMs)} µs per request`
  );
}
