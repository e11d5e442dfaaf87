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
