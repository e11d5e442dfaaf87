/**
 * `jobs submit FILE`, `jobs get ID` and `jobs wait ID`: async jobs (`?async=true` on /v2/file or
 * /v2/stream, then GET /v2/jobs/{id}; docs/realtime.md for subscribe).
 */
import fs from 'node:fs';
import type { JobStatus } from '../../types.js';
import { EXIT, UsageError, type CliContext, type ExitCode } from '../context.js';
import { STDIN } from '../digest.js';
import { sumLine } from '../sums.js';

function describe(status: JobStatus): string {
  const body = status as Record<string, unknown>;
  if (typeof body.hash === 'string') {
    const name = typeof body.filename === 'string' && body.filename !== '' ? body.filename : status.job_id;
    return sumLine(body.hash, name);
  }
  if (Array.isArray(body.results)) return JSON.stringify(body.results);
  return `${status.job_id} ${status.status}`;
}

/**
 * Uploads FILE (or stdin) as a job and prints its id alone, so `id=$(sha224d jobs submit big.iso)`
 * can be followed by `sha224d jobs wait "$id"`; --json prints the 202 answer.
 */
export async function jobsSubmitCommand(context: CliContext, file: string): Promise<ExitCode> {
  if (context.local) throw new UsageError('--local cannot be used with jobs');
  const fromStdin = file === STDIN;
  // ENOENT, EACCES, a directory: a usage error, reported before anything is sent.
  if (!fromStdin && fs.statSync(file).isDirectory()) throw Object.assign(new Error(`${file}: Is a directory`), { code: 'EISDIR' });
  const source = fromStdin ? (context.io.stdin as AsyncIterable<Uint8Array>) : file;
  const accepted = await context.client().jobs.submit('upload', source);
  if (context.json) context.printJson(accepted);
  else context.out(accepted.job_id);
  return EXIT.ok;
}

export async function jobsGetCommand(context: CliContext, id: string): Promise<ExitCode> {
  if (context.local) throw new UsageError('--local cannot be used with jobs');
  const status = await context.client().jobs.get(id);
  if (context.json) context.printJson(status);
  else context.out(status.status === 'completed' ? describe(status) : `${status.job_id} ${status.status}`);
  return EXIT.ok;
}

export async function jobsWaitCommand(context: CliContext, id: string, options: { timeout: number }): Promise<ExitCode> {
  if (context.local) throw new UsageError('--local cannot be used with jobs');
  if (!Number.isFinite(options.timeout) || options.timeout <= 0) throw new UsageError('--timeout must be a positive number of seconds');
  const done = await context.client().jobs.wait(id, { timeoutMs: options.timeout * 1000 });
  if (context.json) context.printJson(done);
  else context.out(describe(done));
  return EXIT.ok;
}
