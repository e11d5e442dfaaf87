/** The `sha224d` command line: commands, options and `--help` examples (commander). */
import { Command, InvalidArgumentError, Option } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { resolveSettings } from './config.js';
import { CliContext, type ExitCode, type GlobalFlags, type Io } from './context.js';
import { statusCommand, usageCommand } from './commands/account.js';
import { batchCommand } from './commands/batch.js';
import { bulkCommand } from './commands/bulk.js';
import { checkCommand } from './commands/check.js';
import { configSetKey, configSetUrl, configShow } from './commands/config.js';
import { hashCommand, hmacCommand, urlCommand, verifyCommand } from './commands/hash.js';
import { jobsGetCommand, jobsSubmitCommand, jobsWaitCommand } from './commands/jobs.js';
import { verifyReceiptCommand } from './commands/receipt.js';

/** `batch --help`: what a line looks like (an object with "data", or a JSON string) and how ids are given. */
const BATCH_HELP = `
Each line is one item: an object with "data" and an optional "id", or a JSON string:
  {"id":"a","data":"hello"}
  {"data":"68656c6c6f"}          (with --encoding hex)
  "hello"
An item without an id gets its 0-based index among the items ("0", "1", …; blank lines are
skipped), as /v1/batch/hash numbers items. Output: one {"id":…,"hash":…} line per item, in order.`;

const EXAMPLES = `
Examples:
  $ sha224d hash abc                          # SHA-224 of the text "abc" (via the service)
  $ sha224d hash -f *.iso > SUMS              # sha224sum format; progress bars on a terminal
  $ sha224sum -c SUMS                         # …which sha224sum understands
  $ sha224d check SUMS                        # verify a manifest through the service (exit 1 on a mismatch)
  $ cat big.bin | sha224d hash -              # stdin, streamed to /v2/stream
  $ sha224d hash -f big.iso --expect 1a2b…    # verified on ingest; over 100 MiB resumable: rerun after Ctrl-C
  $ sha224d --local hash -f big.bin           # computed here with the client-side library, no network
  $ sha224d verify abc 23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7
  $ sha224d verify big.iso --receipt big.receipt.json --log-key "$LOG_KEY"   # offline proof, no server
  $ sha224d hmac message --secret key
  $ sha224d url https://example.com/
  $ sha224d batch items.jsonl > hashes.jsonl  # a line: {"id":"a","data":"hello"} or "hello"; 1000 per request
  $ sha224d bulk items.ndjson > results.ndjson  # one bulk job of millions of {"id","data"} lines; progress on stderr
  $ sha224d --json usage
  $ id=$(sha224d jobs submit big.iso)         # an async job: prints its id at once
  $ sha224d jobs wait "$id"
  $ sha224d config set-key s224_…             # saved in ~/.config/sha224d/config.json (mode 0600)

Key: --key, else SHA224D_API_KEY, else the config file. Address: --base-url, else SHA224D_URL,
else the config file, else http://127.0.0.1:8080.
Exit codes: 0 ok, 1 mismatch, 2 usage error, 3 service error.`;

function choice<T extends string>(flags: string, description: string, choices: readonly T[], fallback: T): Option {
  return new Option(flags, description).choices(choices).default(fallback);
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number');
  return n;
}

const ENCODINGS = ['utf8', 'hex', 'base64'] as const;

/** Builds the program; `run` receives each command's exit code. */
export function buildProgram(io: Io, run: (code: Promise<ExitCode>) => void): Command {
  const program = new Command('sha224d')
    .description('Hash with the sha224d service: text, files (sha224sum format), URLs, batches and jobs')
    .version(packageJson.version)
    .option('--key <key>', 'API key (else SHA224D_API_KEY, else the config file)')
    .option('--base-url <url>', 'service address (else SHA224D_URL, else the config file, else http://127.0.0.1:8080)')
    .option('--json', 'print the service’s JSON answers')
    .option('--local', 'compute here with the client-side SHA-224 library, without the network')
    .addHelpText('after', EXAMPLES)
    .showHelpAfterError('(run sha224d --help for usage and examples)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  const context = (): CliContext => {
    const flags = program.opts<GlobalFlags>();
    return new CliContext(flags, resolveSettings(flags, io.env), io);
  };
  // Each command runs with a fresh context, closed afterwards (a socket.io connection must not keep the process alive).
  const action = (fn: (c: CliContext) => Promise<ExitCode> | ExitCode) => () =>
    run(
      (async () => {
        const c = context();
        try {
          return await fn(c);
        } finally {
          c.close();
        }
      })(),
    );

  program
    .command('hash')
    .description('SHA-224 of TEXT, of files (-f, sha224sum format) or of stdin (-)')
    .argument('[text...]', 'text to hash, or - for stdin')
    .option('-f, --file <files...>', 'files to hash (printed as sha224sum lines)')
    .addOption(choice('-e, --encoding <encoding>', 'encoding of TEXT', ENCODINGS, 'utf8'))
    .addOption(choice('-o, --output <format>', 'digest format of TEXT', ['hex', 'base64'] as const, 'hex'))
    .option('--expect <sha224>', 'the service verifies the files as they arrive; exit 1 with FAILED when one differs')
    .action((texts: string[], options: Parameters<typeof hashCommand>[2]) => action((c) => hashCommand(c, texts, options))());

  program
    .command('verify')
    .description('check that TEXT (or the file, with -f) hashes to HASH; exit 1 when it does not')
    .argument('<subject>', 'text, or a file with -f or --receipt')
    .argument('[hash]', 'expected SHA-224, 56 hex characters (not with --receipt)')
    .option('-f, --file', 'SUBJECT is a file')
    .addOption(choice('-e, --encoding <encoding>', 'encoding of TEXT', ENCODINGS, 'utf8'))
    .option('--receipt <file>', 'prove offline that FILE is in the transparency log, with this receipt (JSON or tlog-proof)')
    .option('--log-key <key>', "the log's verifier key for --receipt (else SHA224D_LOG_KEY)")
    .action(
      (subject: string, hash: string | undefined, options: Parameters<typeof verifyCommand>[3] & { receipt?: string; logKey?: string }) =>
        action((c) =>
          options.receipt !== undefined
            ? verifyReceiptCommand(c, subject, {
                receipt: options.receipt,
                ...(options.logKey === undefined ? {} : { logKey: options.logKey }),
              })
            : verifyCommand(c, subject, hash ?? '', options),
        )(),
    );

  program
    .command('hmac')
    .description('HMAC-SHA-224 of TEXT under --secret')
    .argument('<text>', 'message')
    .option('-s, --secret <secret>', 'the HMAC key')
    .addOption(choice('--secret-encoding <encoding>', 'encoding of the secret', ENCODINGS, 'utf8'))
    .addOption(choice('-e, --encoding <encoding>', 'encoding of TEXT', ENCODINGS, 'utf8'))
    .addOption(choice('-o, --output <format>', 'digest format', ['hex', 'base64'] as const, 'hex'))
    .action((text: string, options: Parameters<typeof hmacCommand>[2]) => action((c) => hmacCommand(c, text, options))());

  program
    .command('url')
    .description('have the service fetch URL and hash its body')
    .argument('<url>', 'http or https URL (public addresses only)')
    .option('-t, --timeout <seconds>', 'fetch timeout (service default 10, at most 60)', positiveNumber)
    .action((url: string, options: { timeout?: number }) => action((c) => urlCommand(c, url, options))());

  program
    .command('batch')
    .description('hash a JSON-lines file (a line: {"id":"a","data":"hello"} or "hello") in requests of 1000 items')
    .argument('<file>', 'JSON-lines file, or - for stdin')
    .addHelpText('after', BATCH_HELP)
    .addOption(choice('-e, --encoding <encoding>', 'encoding of each data', ENCODINGS, 'utf8'))
    .addOption(choice('-o, --output <format>', 'digest format', ['hex', 'base64', 'binary'] as const, 'hex'))
    .option('-c, --concurrency <n>', 'requests in flight', positiveInt, 4)
    .action((file: string, options: Parameters<typeof batchCommand>[2]) => action((c) => batchCommand(c, file, options))());

  program
    .command('bulk')
    .description('hash an NDJSON file ({"id","data","encoding"} per line) as one bulk job; results in input order')
    .argument('<file>', 'NDJSON file, or - for stdin')
    .option('-o, --out <file>', 'write the result lines here instead of stdout')
    .option('-i, --interval <seconds>', 'between two progress reads', positiveNumber, 1)
    .action((file: string, options: Parameters<typeof bulkCommand>[2]) => action((c) => bulkCommand(c, file, options))());

  program.command('usage').description('quota and rate limit of the key’s account (GET /v1/usage)').action(action(usageCommand));
  program.command('status').description('service status and this minute’s rate limit (GET /v1/status)').action(action(statusCommand));

  program
    .command('check')
    .description('verify a sha224sum manifest through the service; exit 1 on any mismatch')
    .argument('<sums>', 'manifest file (sha224sum or BSD format), or - for stdin')
    .option('-q, --quiet', 'do not print OK lines')
    .action((sums: string, options: { quiet?: boolean }) => action((c) => checkCommand(c, sums, options))());

  const jobs = program.command('jobs').description('async jobs: submit a file, get its state, wait for its result');
  jobs
    .command('submit')
    .description('upload FILE as an async job (/v2/file or /v2/stream with ?async=true) and print its job id')
    .argument('<file>', 'file, or - for stdin')
    .action((file: string) => action((c) => jobsSubmitCommand(c, file))());
  jobs
    .command('get')
    .description('state of a job (GET /v2/jobs/{id})')
    .argument('<id>', 'job id')
    .action((id: string) => action((c) => jobsGetCommand(c, id))());
  jobs
    .command('wait')
    .description('wait until the job finishes (socket.io when installed, else polling) and print its result')
    .argument('<id>', 'job id')
    .option('-t, --timeout <seconds>', 'give up after this long', positiveNumber, 600)
    .action((id: string, options: { timeout: number }) => action((c) => jobsWaitCommand(c, id, options))());

  const config = program.command('config').description('the config file (API key, address)');
  config
    .command('set-key')
    .description('save the API key in the config file (mode 0600)')
    .argument('<key>', 'API key (s224_…)')
    .action((key: string) => action((c) => configSetKey(c, key))());
  config
    .command('set-url')
    .description('save the service address in the config file')
    .argument('<url>', 'service address, e.g. https://hash.example.com')
    .action((url: string) => action((c) => configSetUrl(c, url))());
  config
    .command('show')
    .description('print the address and key in effect (the key masked) and the config file’s path')
    .action(action(configShow));

  for (const command of [program, ...program.commands, ...jobs.commands, ...config.commands]) {
    command.exitOverride().configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  }
  return program;
}
