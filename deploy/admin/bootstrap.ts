/**
 * First start: with no accounts at all, create account "admin" (enterprise) and one production key,
 * and hand its secret back so the server can print it once. Afterwards this does nothing.
 *
 * Meant for embedded mode (one process). Two nodes starting at once on an empty PostgreSQL could
 * both see no accounts and each create an admin; distributed deployments should create accounts
 * with the admin CLI instead (BOOTSTRAP_ADMIN=false).
 */
import { createApiKey } from '../../shared/keys/api-keys.js';
import type { AccountStore } from '../../shared/store/types.js';

export interface BootstrappedAdmin {
  /** The admin key, to be shown once; it is not stored anywhere in clear. */
  secret: string;
  accountId: string;
  keyId: string;
}

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
