/**
 * Admin CLI commands for Enterprise authentication (docs/auth.md), for deploy/admin/cli.ts to add:
 *
 *   program.addCommand(oauthCommand());
 *   program.addCommand(jwtCommand());
 *
 *   oauth register --account <id> --name <name> --redirect-uri <uri>… [--public] [--json]
 *   oauth list [--account <id>] [--json]
 *   oauth delete <client-id> [--json]
 *   jwt issue --account <id> --permissions hash:create,hash:verify [--lifetime 900] [--json]
 *
 * A client secret is printed once, by `oauth register`; a JWT is printed by `jwt issue`.
 * Usage mistakes are INVALID_INPUT ServiceErrors or commander errors, which cli.ts's main() maps
 * to exit code 2.
 */
import { Command, InvalidArgumentError } from 'commander';
import { issueJwt } from '../../shared/auth/jwt.js';
import { registerOAuthClient } from '../../shared/oauth/clients.js';
import { PERMISSION_CLAIMS } from '../../shared/auth/principal.js';
import { invalidInput } from '../../shared/errors.js';
import { out, reportingAction } from './output.js';
import { withStore } from './with-store.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function parsePermissions(value: string): string[] {
  const known: readonly string[] = Object.values(PERMISSION_CLAIMS);
  const list = value.split(/[\s,]+/).filter(Boolean);
  if (list.length === 0 || list.some((p) => !known.includes(p)))
    throw new InvalidArgumentError(`expected one or more of ${known.join(', ')}`);
  return list;
}

function parseSeconds(value: string): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a number of seconds');
  return Number(value);
}

export function oauthCommand(): Command {
  const oauth = new Command('oauth').description('manage OAuth 2.0 clients of Enterprise accounts').exitOverride().showHelpAfterError();
  reportingAction(
    oauth
      .command('register')
      .description('register an OAuth client; its secret is printed once and cannot be shown again')
      .requiredOption('--account <id>', 'the Enterprise account that owns (and alone may authorize) the client')
      .requiredOption('--name <name>', 'application name')
      .requiredOption('--redirect-uri <uri>', 'exact redirect URI (repeat for several)', collect)
      .option('--public', 'a public client (no secret; PKCE only)', false),
    async (opts: { account: string; name: string; redirectUri: string[]; public: boolean }) => {
      const { clientId, clientSecret } = await withStore((store) =>
        registerOAuthClient(store, { accountId: opts.account, name: opts.name, redirectUris: opts.redirectUri, isPublic: opts.public }),
      );
      if (clientSecret !== undefined) process.stderr.write('Store the secret now: it is shown only once and cannot be recovered.\n');
      return {
        data: { clientId, clientSecret: clientSecret ?? null, accountId: opts.account, isPublic: opts.public },
        text: () => {
          out(`Client id: ${clientId}`);
          if (clientSecret !== undefined) out(`Client secret: ${clientSecret}`);
        },
      };
    },
  );
  reportingAction(
    oauth.command('list').description('list OAuth clients (never shows secrets)').option('--account <id>', 'only this account'),
    async (opts: { account?: string }) => {
      const clients = await withStore((store) => store.oauthServer.listClients(opts.account));
      return {
        data: clients,
        text: () => {
          for (const c of clients) {
            out(
              [c.id, c.accountId, c.isPublic ? 'public' : 'confidential', c.createdAt.toISOString(), c.name, c.redirectUris.join(',')].join(
                '  ',
              ),
            );
          }
        },
      };
    },
  );
  reportingAction(
    oauth
      .command('delete')
      .description('delete an OAuth client; its codes and tokens stop working at once')
      .argument('<client-id>', 'client id'),
    async (id: string) => {
      const deleted = await withStore((store) => store.oauthServer.deleteClient(id));
      if (!deleted) throw new Error(`No OAuth client ${id}`);
      return { data: { clientId: id, deleted: true }, text: () => out(`Deleted ${id}`) };
    },
  );
  return oauth;
}

export function jwtCommand(): Command {
  const jwt = new Command('jwt').description('Enterprise JSON Web Tokens').exitOverride().showHelpAfterError();
  reportingAction(
    jwt
      .command('issue')
      .description('sign a short-lived HS256 token with JWT_SECRET; prints the token')
      .requiredOption('--account <id>', 'the Enterprise account (the sub claim)')
      .requiredOption('--permissions <list>', `comma-separated: ${Object.values(PERMISSION_CLAIMS).join(', ')}`, parsePermissions)
      .option('--lifetime <seconds>', 'lifetime in seconds (at most 900)', parseSeconds, 900),
    async (opts: { account: string; permissions: string[]; lifetime: number }) => {
      const token = await withStore(async (store, config) => {
        if (!config.JWT_SECRET) throw new Error('JWT_SECRET is not set');
        const account = await store.getAccount(opts.account);
        if (!account) throw invalidInput('account', 'Unknown account');
        if (account.plan !== 'enterprise') throw invalidInput('account', 'JWTs are available to Enterprise accounts only');
        return issueJwt({
          secret: config.JWT_SECRET,
          issuer: config.JWT_ISSUER,
          accountId: account.id,
          permissions: opts.permissions,
          lifetimeSeconds: opts.lifetime,
        });
      });
      return {
        data: { token, accountId: opts.account, permissions: opts.permissions, lifetimeSeconds: opts.lifetime },
        text: () => out(token),
      };
    },
  );
  return jwt;
}
