/** How the CLI reports a failure, and which exit code it means (README "CLI"). */
import { CommanderError } from 'commander';
import { Sha224dError } from '../errors.js';
import { EXIT, UsageError, type ExitCode } from './context.js';

const FILE_ERRORS = new Set(['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR', 'EPERM', 'ELOOP', 'ENAMETOOLONG']);

/** A file named on the command line could not be read. */
export function isFileError(err: unknown): err is NodeJS.ErrnoException {
  return (
    err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && FILE_ERRORS.has((err as NodeJS.ErrnoException).code!)
  );
}

function fileMessage(err: NodeJS.ErrnoException): string {
  const reasons: Record<string, string> = { ENOENT: 'No such file or directory', EACCES: 'Permission denied', EISDIR: 'Is a directory' };
  const reason = reasons[err.code!] ?? err.code!;
  return err.path !== undefined ? `${err.path}: ${reason}` : err.message;
}

/** The message for stderr (without the `sha224d: ` prefix) and the exit code. */
export function classify(err: unknown): { message: string | undefined; code: ExitCode } {
  if (err instanceof CommanderError) return { message: undefined, code: err.exitCode === 0 ? EXIT.ok : EXIT.usage };
  if (err instanceof UsageError) return { message: err.message, code: EXIT.usage };
  if (isFileError(err)) return { message: fileMessage(err), code: EXIT.usage };
  if (err instanceof Sha224dError) {
    const context = [
      err.status === undefined ? undefined : `HTTP ${err.status}`,
      err.requestId === undefined ? undefined : `request ${err.requestId}`,
    ]
      .filter((part) => part !== undefined)
      .join(', ');
    const details = typeof err.details === 'string' && err.details !== '' ? ` — ${err.details}` : '';
    return { message: `${err.code}: ${err.message}${details}${context === '' ? '' : ` (${context})`}`, code: EXIT.service };
  }
  if (err instanceof SyntaxError) return { message: err.message, code: EXIT.usage };
  return { message: err instanceof Error ? err.message : String(err), code: EXIT.service };
}
