/**
 * First start: the account created by bootstrapAdmin gets its first owner, `ADMIN_EMAIL`, without a
 * password, and a one-time link (24 h) that lets the operator set one in the dashboard. Afterwards
 * (the account has members) this does nothing; a lost link is replaced with
 * `npm run admin -- users reset-password <email>`.
 */
import type { AccountStore } from '../store/types.js';
import type { IssuedLink } from './one-time-links.js';
import { addPersonToAccount } from './people.js';

export async function bootstrapFirstOwner(
  store: Pick<AccountStore, 'users' | 'oneTimeLinks' | 'getAccount'>,
  input: { accountId: string; email: string; baseUrl: string; now?: Date },
): Promise<{ email: string; link: IssuedLink } | undefined> {
  if ((await store.users.listMembers(input.accountId)).length > 0) return undefined;
  const added = await addPersonToAccount(store, { ...input, role: 'owner' });
  return added.setupLink && { email: added.user.email, link: added.setupLink };
}
