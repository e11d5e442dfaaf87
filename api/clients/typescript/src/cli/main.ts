/** Entry of the `sha224d` command (bin/sha224d.js): runs one command and exits with its code. */
import { classify } from './errors.js';
import { EXIT, type ExitCode, type Io } from './context.js';
import { buildProgram } from './program.js';

export async function runCli(argv: string[], io: Io): Promise<ExitCode> {
  let pending: Promise<ExitCode> | undefined;
  const report = (err: unknown): ExitCode => {
    const { message, code } = classify(err);
    if (message !== undefined) io.stderr.write(`sha224d: ${message}\n`);
    return code;
  };
  try {
    const program = buildProgram(io, (code) => (pending = code));
    await program.parseAsync(argv, { from: 'user' });
    return pending === undefined ? EXIT.ok : await pending;
  } catch (err) {
    return report(err);
  }
}

/** The status of a process ended by SIGPIPE (128 + 13), what `sha224sum … | head` leaves. */
const EXIT_BROKEN_PIPE = 141;

// A reader that stops early (`sha224d batch items.jsonl | head -2`) closes the pipe: end at once and
// quietly, as sha224sum does, instead of an unhandled 'error' event and its stack trace. Node ignores
// SIGPIPE itself, so the conventional status is set by hand.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT_BROKEN_PIPE);
  throw err;
});

const io: Io = {
  stdout: process.stdout,
  stderr: process.stderr,
  // Opened only by the commands that read it.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
};
// Output is flushed before exit: process.exitCode, not process.exit().
process.exitCode = await runCli(process.argv.slice(2), io);
