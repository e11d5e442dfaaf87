/** `jobs get ID` and `jobs wait ID`: async jobs (GET /v2/jobs/{id}; docs/realtime.md for subscribe). */
import type { JobStatus } from '../../types.js';
import { EXIT, UsageError, type CliContext, type ExitCode } from '../context.js';
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
