/** How admin commands print: plain aligned columns for people, `--json` for scripts. */
import type { Command } from 'commander';

/** What a command found or did: `data` is its `--json` document, `text` prints it for people. */
export interface Report {
  data: unknown;
  text: () => void;
}

/**
 * The one place the output is chosen: adds `--json` to `command` and makes `run` its action. `run`
 * gets commander's action arguments and returns a Report; with `--json` its `data` is printed as one
 * JSON document (a stable shape, documented in docs/operating.md "From the admin CLI"), else `text` runs.
 * Notes meant for people only (a secret is shown once, …) go to stderr either way.
 */
export function reportingAction<Args extends unknown[]>(command: Command, run: (...args: Args) => Promise<Report>): Command {
  return command.option('--json', 'print one JSON document (for scripts)').action(async (...args: unknown[]) => {
    const report = await run(...(args as Args));
    // With globals: a parent that has --json of its own (`queues`) takes it wherever it is written.
    if (command.optsWithGlobals<{ json?: boolean }>().json === true) printJson(report.data);
    else report.text();
  });
}

export function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Pretty JSON followed by a newline: one document per command, so `jq` reads it. */
export function printJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

export function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  for (const row of [header, ...rows])
    out(
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    );
}

/** "3d 4h", "12m 5s", "40s": a duration for a column. */
export function shortDuration(seconds: number): string {
  const units: Array<[string, number]> = [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  let rest = Math.max(0, Math.floor(seconds));
  for (const [unit, size] of units) {
    if (rest >= size || (unit === 's' && parts.length === 0)) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}
