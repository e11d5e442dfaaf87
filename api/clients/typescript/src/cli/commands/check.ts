/**
 * `check SUMS`: verifies a sha224sum manifest through the service (or --local), printing
 * `NAME: OK` / `NAME: FAILED` like `sha224sum -c`. Exit 1 when any file does not match or cannot be
 * read; a service error stops the run with exit 3.
 */
import fs from 'node:fs';
import { EXIT, type CliContext, type ExitCode } from '../context.js';
import { digestFile } from '../digest.js';
import { parseManifest } from '../sums.js';
import { isFileError } from '../errors.js';
import { isHashMismatch } from '../mismatch.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
  return text;
}

export async function checkCommand(context: CliContext, sums: string, options: { quiet?: boolean }): Promise<ExitCode> {
  const text = sums === '-' ? await readAll(context.io.stdin) : fs.readFileSync(sums, 'utf8');
  const { entries, malformed } = parseManifest(text);
  if (entries.length === 0) {
    context.err(`${sums}: no properly formatted SHA224 checksum lines found`);
    return EXIT.mismatch;
  }
  const results: Array<{ file: string; expected: string; computed: string | null; ok: boolean }> = [];
  let mismatched = 0;
  let unreadable = 0;
  for (const entry of entries) {
    let computed: string | null = null;
    let refused = false;
    try {
      // Through the service each file is verified on ingest against its manifest line.
      computed = (await digestFile(context, entry.name, context.local ? {} : { expect: entry.hash })).hash;
    } catch (err) {
      if (isHashMismatch(err)) refused = true;
      else if (!isFileError(err)) throw err;
      else context.err(`${entry.name}: ${(err as Error).message}`);
    }
    const ok = computed === entry.hash;
    if (refused) mismatched += 1;
    else if (computed === null) unreadable += 1;
    else if (!ok) mismatched += 1;
    results.push({ file: entry.name, expected: entry.hash, computed, ok });
    if (!context.json && !(ok && options.quiet))
      context.out(`${entry.name}: ${ok ? 'OK' : computed === null && !refused ? 'FAILED open or read' : 'FAILED'}`);
  }
  if (context.json) context.printJson(results);
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  if (malformed > 0) context.err(`WARNING: ${plural(malformed, 'line is', 'lines are')} improperly formatted`);
  if (unreadable > 0) context.err(`WARNING: ${plural(unreadable, 'listed file', 'listed files')} could not be read`);
  if (mismatched > 0) context.err(`WARNING: ${plural(mismatched, 'computed checksum', 'computed checksums')} did NOT match`);
  return mismatched > 0 || unreadable > 0 ? EXIT.mismatch : EXIT.ok;
}
