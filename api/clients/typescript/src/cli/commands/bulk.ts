/**
 * `bulk FILE.ndjson`: the whole file as one bulk job (docs/api.md "Bulk jobs"), streamed as it is
 * read; a progress line on stderr while it runs (rewritten in place on a terminal); then the result
 * lines, in input order, on stdout or in `--out`. Exit 1 when any item is an error line.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { BulkStatus } from '../../types.js';
import { EXIT, UsageError, type CliContext, type ExitCode } from '../context.js';

export interface BulkOptions {
  out?: string;
  interval: number;
}

function progressLine(status: BulkStatus): string {
  const { total, done, failed } = status.items;
  const eta = status.eta_seconds === null ? '' : `, ETA ${status.eta_seconds} s`;
  return `${status.id} ${status.status}: ${done + failed}/${total} items (${failed} failed), ${status.rate_items_per_second} items/s${eta}`;
}

export async function bulkCommand(context: CliContext, file: string, options: BulkOptions): Promise<ExitCode> {
  if (context.local) throw new UsageError('--local cannot be used with bulk');
  const fromStdin = file === '-';
  if (!fromStdin) fs.accessSync(file, fs.constants.R_OK);
  const open = (): ReadableStream<Uint8Array> =>
    Readable.toWeb(
      fromStdin ? Readable.from(context.io.stdin as AsyncIterable<Uint8Array>) : fs.createReadStream(file),
    ) as ReadableStream<Uint8Array>;
  const bulk = context.client().v2.bulk;
  const created = await bulk.create(open);
  const tty = context.io.stderr.isTTY === true;
  let last = '';
  const finished = await bulk.wait(created.id, {
    intervalMs: options.interval * 1000,
    onProgress: (status) => {
      const line = progressLine(status);
      if (line === last) return;
      last = line;
      // A terminal gets one line rewritten in place; a pipe or a log gets a line per change.
      context.io.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
    },
  });
  if (tty) context.io.stderr.write('\n');
  const results = Readable.fromWeb((await bulk.resultsStream(created.id)) as WebReadableStream);
  await pipeline(results, options.out === undefined ? context.io.stdout : fs.createWriteStream(options.out), {
    end: options.out !== undefined,
  });
  if (context.json) context.io.stderr.write(`${JSON.stringify(finished)}\n`);
  return finished.items.failed > 0 ? EXIT.mismatch : EXIT.ok;
}
