/**
 * Admin CLI commands for the dashboard's people (docs/decisions.md "Dashboard and accounts"):
 *
 *   users create --account <id> --email <email> [--name <name>] [--role developer]
 *   users reset-password <email>
 *   users list [--account <id>]
 *
 * Nothing is emailed: a one-time link (24 h, one use) is printed for the operator to hand over.
 * Links point at PUBLIC_URL, or at this node's own address when none is set.
 */
import { Command, Option } from 'commander';
import { addPersonToAccount } from '../../shared/accounts/people.js';
import { issueOneTimeLink, type IssuedLink } from '../../shared/accounts/one-time-links.js';
import type { Config } from '../../shared/config.js';
import { invalidInput } from '../../shared/errors.js';
import { ROLES, type Role } from '../../shared/store/dashboard-types.js';
import { out } from './output.js';
import { withStore } from './with-store.js';

/** Where links send people: PUBLIC_URL, else the address `npm start` listens on. */
export function linkBaseUrl(config: Config): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return `${config.TLS_CERT ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}

function printLink(link: IssuedLink): void {
  out(`One-time link (valid until ${link.expiresAt.toISOString()}, works once): ${link.url}`);
}

export function usersCommand(): Command {
  const users = new Command('users').description('people who sign in to the dashboard').exitOverride().showHelpAfterError();

  users
    .command('create')
    .description('add a person to an account; prints a one-time link to set their password if they have none')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--email <email>', 'the email they sign in with')
    .option('--name <name>', 'display name', '')
    .addOption(new Option('--role <role>', 'role in the account').choices(ROLES).default('developer'))
    .action(async (opts: { account: string; email: string; name: string; role: Role }) => {
      await withStore(async (store, config) => {
        const added = await addPersonToAccount(store, { ...opts, accountId: opts.account, baseUrl: linkBaseUrl(config) });
        out(`User id: ${added.user.id}`);
        if (!added.added) out(`${added.user.email} was already a member of ${opts.account}; nothing changed`);
        else out(`${added.user.email} is now ${opts.role} of ${opts.account}`);
        if (added.setupLink) printLink(added.setupLink);
        else out('They already have a password and sign in with it.');
      });
    });

  users
    .command('reset-password')
    .description('print a one-time link that sets a new password (earlier links stop working)')
    .argument('<email>', 'the email the person signs in with')
    .action(async (email: string) => {
      await withStore(async (store, config) => {
        const found = await store.users.findUserByEmail(email);
        if (!found) throw invalidInput('email', `No person signs in as ${email}`);
        printLink(
          await issueOneTimeLink(store, {
            userId: found.user.id,
            purpose: found.user.hasPassword ? 'reset' : 'setup',
            baseUrl: linkBaseUrl(config),
          }),
        );
      });
    });

  users
    .command('list')
    .description('people and their roles, per account')
    .option('--account <id>', 'only this account')
    .action(async (opts: { account?: string }) => {
      const rows = await withStore(async (store) => {
        const accounts = (await store.listAccounts()).filter((a) => opts.account === undefined || a.id === opts.account);
        if (opts.account !== undefined && accounts.length === 0) throw invalidInput('account', `No account ${opts.account}`);
        const lists = await Promise.all(accounts.map(async (a) => ({ a, members: await store.users.listMembers(a.id) })));
        return lists.flatMap(({ a, members }) =>
          members.map((m) => [m.email, m.userId, a.id, m.role, m.hasPassword ? 'set' : 'not yet', m.name || '-']),
        );
      });
      const header = ['EMAIL', 'USER', 'ACCOUNT', 'ROLE', 'PASSWORD', 'NAME'];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
      for (const row of [header, ...rows])
        out(
          row
            .map((cell, i) => (cell ?? '').padEnd(widths[i] ?? 0))
            .join('  ')
            .trimEnd(),
        );
    });
  return users;
}
