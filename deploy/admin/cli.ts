/**
 * Admin CLI: `npm run admin -- <command>`. Reads the database location from the environment via
 * loadConfig() (DATABASE_URL, or DATA_DIR/sha224d.sqlite) and applies pending migrations first.
 *
 * Exit codes: 0 ok, 2 usage error (unknown command, bad option, invalid input), 1 any other failure.
 * Errors are printed as one line, without a stack. Key secrets are printed once, by `keys create`;
 * no command prints a stored hash. Every command takes `--json` (one JSON document on stdout), chosen
 * in one place: output.ts reportingAction.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { loadConfig } from '../../shared/config.js';
import { isServiceError } from '../../shared/errors.js';
import { createApiKey, revokeApiKey } from '../../shared/keys/api-keys.js';
import { jwtCommand, oauthCommand } from './oauth-commands.js';
import { out, reportingAction, table } from './output.js';
import { jobsCommand, queuesCommand } from './queue-commands.js';
import { describeTargets } from './targets.js';
import { usageCommand } from './usage-command.js';
import { UsageError } from './usage-error.js';
import { serviceVersion } from './version.js';
import { usersCommand } from './user-commands.js';
import { webhooksCommand } from './webhook-commands.js';
import { withStore } from './with-store.js';
import { type ApiKeyRecord, KEY_TYPES, type KeyType, type Plan, PLANS } from '../../shared/store/types.js';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;
const DURATION_RE = /^(\d{1,5})([dh])$/;
const DURATION_UNIT_MS = { d: 86_400_000, h: 3_600_000 } as const;

function iso(date: Date | null): string {
  return date ? date.toISOString() : '-';
}

function keyStatus(key: ApiKeyRecord, now = new Date()): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** A key as `keys list --json` and `keys create --json` show it: the record (no hash) and its status. */
function keyView(key: ApiKeyRecord, now = new Date()): ApiKeyRecord & { status: 'active' | 'revoked' | 'expired' } {
  return { ...key, status: keyStatus(key, now) };
}

/** "2030-01-01T00:00:00Z", "2030-01-01", or a duration from now: "30d", "12h". */
function parseExpiry(value: string, now = new Date()): Date {
  const m = DURATION_RE.exec(value);
  if (m) return new Date(now.getTime() + Number(m[1]) * DURATION_UNIT_MS[m[2] as 'd' | 'h']);
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new InvalidArgumentError('expected an ISO date (2030-01-31) or a duration (30d, 12h)');
  return new Date(ms);
}

function parseDomains(value: string): string[] {
  return value
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
}

function parsePlan(value: string): Plan {
  if (!(PLANS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${PLANS.join(', ')}`);
  }
  return value as Plan;
}

export function buildProgram(): Command {
  const program = new Command('admin')
    .description('sha224d administration: accounts, API keys, dashboard users, queues and jobs')
    .exitOverride()
    .showHelpAfterError();
  program.version(serviceVersion(), '-V, --version', 'print the version');
  // Which store (and Redis) this run works on, before any command touches it; stderr keeps stdout parseable.
  program.hook('preAction', () => void process.stderr.write(`${describeTargets(loadConfig())}\n`));

  const accounts = program.command('accounts').description('manage accounts');
  reportingAction(
    accounts
      .command('create')
      .description('create an account; prints its id')
      .requiredOption('--name <name>', 'account name')
      .addOption(new Option('--plan <plan>', 'plan').choices(PLANS).makeOptionMandatory()),
    async (opts: { name: string; plan: Plan }) => {
      const name = opts.name.trim();
      if (!name) throw new UsageError('--name must not be empty');
      const account = await withStore((store) => store.createAccount({ name, plan: opts.plan }));
      return { data: account, text: () => out(account.id) };
    },
  );
  reportingAction(accounts.command('list').description('list accounts'), async () => {
    const list = await withStore((store) => store.listAccounts());
    return {
      data: list,
      text: () =>
        table(
          ['ID', 'NAME', 'PLAN', 'CREATED'],
          list.map((a) => [a.id, a.name, a.plan, iso(a.createdAt)]),
        ),
    };
  });
  reportingAction(
    accounts
      .command('set-plan')
      .description("change an account's plan")
      .argument('<id>', 'account id')
      .argument('<plan>', `one of ${PLANS.join(', ')}`, parsePlan),
    async (id: string, plan: Plan) => {
      const changed = await withStore((store) => store.setPlan(id, plan));
      if (!changed) throw new Error(`No account ${id}`);
      return { data: { id, plan }, text: () => out(`Account ${id} is now on plan ${plan}`) };
    },
  );

  const keys = program.command('keys').description('manage API keys');
  reportingAction(
    keys
      .command('create')
      .description('create an API key; the key is printed once and cannot be shown again')
      .requiredOption('--account <id>', 'account id')
      .addOption(new Option('--type <type>', 'key type').choices(KEY_TYPES).makeOptionMandatory())
      .requiredOption('--description <text>', 'what the key is for')
      .option('--domains <list>', 'client keys: comma-separated host names (*.example.com allowed)', parseDomains)
      .option('--expires <when>', 'ISO date or duration from now (30d, 12h)', (v) => parseExpiry(v)),
    async (opts: { account: string; type: KeyType; description: string; domains?: string[]; expires?: Date }) => {
      const { record, secret } = await withStore((store) =>
        createApiKey(store, {
          accountId: opts.account,
          type: opts.type,
          description: opts.description,
          allowedDomains: opts.domains ?? [],
          expiresAt: opts.expires ?? null,
        }),
      );
      process.stderr.write('Store the key now: it is shown only once and cannot be recovered.\n');
      return {
        data: { ...keyView(record), secret },
        text: () => {
          out(`API key: ${secret}`);
          out(`Key id: ${record.id}`);
        },
      };
    },
  );
  reportingAction(
    keys.command('list').description('list API keys (never shows secrets or hashes)').option('--account <id>', 'only this account'),
    async (opts: { account?: string }) => {
      const list = await withStore((store) => store.listKeys(opts.account));
      const now = new Date();
      return {
        data: list.map((k) => keyView(k, now)),
        text: () =>
          table(
            ['ID', 'ACCOUNT', 'PREFIX', 'TYPE', 'STATUS', 'CREATED', 'EXPIRES', 'LAST USED', 'DOMAINS', 'DESCRIPTION'],
            list.map((k) => [
              k.id,
              k.accountId,
              `${k.prefix}…`,
              k.type,
              keyStatus(k, now),
              iso(k.createdAt),
              iso(k.expiresAt),
              iso(k.lastUsedAt),
              k.allowedDomains.join(',') || '-',
              k.description,
            ]),
          ),
      };
    },
  );
  reportingAction(
    keys.command('revoke').description('revoke an API key for good (it cannot be restored)').argument('<id>', 'key id'),
    async (id: string) => {
      const alreadyRevoked = await withStore(async (store) => {
        if (await revokeApiKey(store, id)) return false;
        if (!(await store.getKey(id))) throw new Error(`No key ${id}`);
        return true;
      });
      return {
        data: { id, revoked: true, alreadyRevoked },
        text: () => out(alreadyRevoked ? `${id} was already revoked` : `Revoked ${id}`),
      };
    },
  );

  // Enterprise: OAuth 2.0 clients and short-lived JWTs (docs/auth.md).
  program.addCommand(oauthCommand());
  program.addCommand(jwtCommand());
  // Operating: queues, jobs and usage (docs/operating.md).
  for (const command of [queuesCommand(), jobsCommand(), usageCommand()]) program.addCommand(command);
  // People who sign in to the dashboard, with one-time links to set passwords.
  program.addCommand(usersCommand());
  program.addCommand(webhooksCommand());
  return program;
}

/** Runs the CLI on `argv` (user arguments only) and returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv], { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    // Commander has already printed its own message (and help) for these.
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    const usage = err instanceof UsageError || (isServiceError(err) && err.code === 'INVALID_INPUT');
    const detail = isServiceError(err) && err.details ? ` (${err.details})` : '';
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}${detail}\n`);
    return usage ? EXIT_USAGE : EXIT_FAILURE;
  }
}

// Run only as the entry point, so tests can import buildProgram/main without side effects.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
