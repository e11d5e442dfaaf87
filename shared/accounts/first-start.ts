/**
 * First start, in embedded mode and on distributed API nodes alike: with no accounts at all, create
 * account "admin" (enterprise), one production key and the first owner of the dashboard, and say
 * so once. Nodes starting together on one PostgreSQL take the store's first-start lock, so exactly
 * one of them creates and prints; the others (and every later start) find the account and print
 * nothing (docs/decisions.md "Keys and authentication").
 */
import path from 'node:path';
import type { Config } from '../config.js';
import { createApiKey } from '../keys/api-keys.js';
import { isPostgresUrl } from '../store/database.js';
import type { AccountStore } from '../store/types.js';
import { bootstrapFirstOwner } from './first-owner.js';
import type { IssuedLink } from './one-time-links.js';

export interface BootstrappedAdmin {
  /** The admin key, to be shown once; it is not stored anywhere in clear. */
  secret: string;
  accountId: string;
  keyId: string;
}

/** Creates the admin account and its key when the store has no account; undefined otherwise. */
export async function bootstrapAdmin(store: AccountStore): Promise<BootstrappedAdmin | undefined> {
  if ((await store.listAccounts()).length > 0) return undefined;
  const account = await store.createAccount({ name: 'admin', plan: 'enterprise' });
  const { record, secret } = await createApiKey(store, {
    accountId: account.id,
    type: 'production',
    description: 'Created at first start',
  });
  return { secret, accountId: account.id, keyId: record.id };
}

export interface FirstStart extends BootstrappedAdmin {
  owner: { email: string; link: IssuedLink } | undefined;
}

/** The bootstrap under the store's first-start lock; undefined when another start did it. */
export function bootstrapFirstStart(store: AccountStore, input: { email: string; baseUrl: string }): Promise<FirstStart | undefined> {
  return store.withFirstStartLock(async () => {
    const admin = await bootstrapAdmin(store);
    if (!admin) return undefined;
    const owner = await bootstrapFirstOwner(store, { accountId: admin.accountId, ...input });
    return { ...admin, owner };
  });
}

/** Single-quotes a word for a POSIX shell when it needs it. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * `npm run admin --` with what it needs to open the store this process uses: `npm run` runs the
 * CLI in the package root (`root`), where the default DATA_DIR is `./data`; any other data
 * directory, or PostgreSQL's URL, is spelled out. A URL's password is never printed.
 */
export function adminCommand(config: Pick<Config, 'DATABASE_URL' | 'dataDir'>, root: string): string {
  if (isPostgresUrl(config.DATABASE_URL)) {
    const url = new URL(config.DATABASE_URL);
    const shown = url.password === '' ? shellWord(config.DATABASE_URL) : '"$DATABASE_URL"';
    return `DATABASE_URL=${shown} npm run admin --`;
  }
  return path.resolve(config.dataDir) === path.join(path.resolve(root), 'data')
    ? 'npm run admin --'
    : `DATA_DIR=${shellWord(path.resolve(config.dataDir))} npm run admin --`;
}

/** What first start prints: the key, a curl line, and the owner's one-time link with its recovery command. */
export function firstStartText(started: FirstStart, baseUrl: string, admin: string): string {
  let text =
    `API key: ${started.secret}\n` +
    `Try: curl -s -H "X-API-Key: ${started.secret}" -H 'content-type: application/json' -d '{"data":"abc"}' ${baseUrl}/v2/hash\n`;
  if (started.owner) {
    text +=
      `Dashboard: set the password of ${started.owner.email} within 24 hours (the link works once): ${started.owner.link.url}\n` +
      `A lost link is replaced with: ${admin} users reset-password ${started.owner.email}\n`;
  }
  return text;
}
