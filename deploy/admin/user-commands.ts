/**
 * Admin CLI commands for the dashboard's people (docs/decisions.md "Dashboard and accounts"):
 *
 *   users create --account <id> --email <email> [--name <name>] [--role developer] [--json]
 *   users reset-password <email> [--json]
 *   users list [--account <id>] [--json]
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
import { out, reportingAction, table } from './output.js';
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

/** A link as `--json` shows it. */
function linkView(link: IssuedLink): { url: string; expiresAt: Date } {
  return { url: link.url, expiresAt: link.expiresAt };
}

export function usersCommand(): Command {
  const users = new Command('users').description('people who sign in to the dashboard').exitOverride().showHelpAfterError();

  reportingAction(
    users
      .command('create')
      .description('add a person to an account; prints a one-time link to set their password if they have none')
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--email <email>', 'the email they sign in with')
      .option('--name <name>', 'display name', '')
      .addOption(new Option('--role <role>', 'role in the account').choices(ROLES).default('developer')),
    async (opts: { account: string; email: string; name: string; role: Role }) => {
      const added = await withStore((store, config) =>
        addPersonToAccount(store, { ...opts, accountId: opts.account, baseUrl: linkBaseUrl(config) }),
      );
      return {
        data: {
          userId: added.user.id,
          email: added.user.email,
          accountId: opts.account,
          role: opts.role,
          added: added.added,
          setupLink: added.setupLink ? linkView(added.setupLink) : null,
        },
        text: () => {
          out(`User id: ${added.user.id}`);
          if (!added.added) out(`${added.user.email} was already a member of ${opts.account}; nothing changed`);
          else out(`${added.user.email} is now ${opts.role} of ${opts.account}`);
          if (added.setupLink) printLink(added.setupLink);
          else out('They already have a password and sign in with it.');
        },
      };
    },
  );

  reportingAction(
    users
      .command('reset-password')
      .description('print a one-time link that sets a new password (earlier links stop working)')
      .argument('<email>', 'the email the person signs in with'),
    async (email: string) => {
      const { userId, link } = await withStore(async (store, config) => {
        const found = await store.users.findUserByEmail(email);
        if (!found) throw invalidInput('email', `No person signs in as ${email}`);
        const issued = await issueOneTimeLink(store, {
          userId: found.user.id,
          purpose: found.user.hasPassword ? 'reset' : 'setup',
          baseUrl: linkBaseUrl(config),
        });
        return { userId: found.user.id, link: issued };
      });
      return { data: { userId, email, link: linkView(link) }, text: () => printLink(link) };
    },
  );

  reportingAction(
    users.command('list').description('people and their roles, per account').option('--account <id>', 'only this account'),
    async (opts: { account?: string }) => {
      const people = await withStore(async (store) => {
        const accounts = (await store.listAccounts()).filter((a) => opts.account === undefined || a.id === opts.account);
        if (opts.account !== undefined && accounts.length === 0) throw invalidInput('account', `No account ${opts.account}`);
        const lists = await Promise.all(accounts.map(async (a) => ({ a, members: await store.users.listMembers(a.id) })));
        return lists.flatMap(({ a, members }) =>
          members.map((m) => ({
            email: m.email,
            userId: m.userId,
            accountId: a.id,
            role: m.role,
            hasPassword: m.hasPassword,
            name: m.name,
          })),
        );
      });
      return {
        data: people,
        text: () =>
          table(
            ['EMAIL', 'USER', 'ACCOUNT', 'ROLE', 'PASSWORD', 'NAME'],
            people.map((p) => [p.email, p.userId, p.accountId, p.role, p.hasPassword ? 'set' : 'not yet', p.name || '-']),
          ),
      };
    },
  );
  return users;
}
