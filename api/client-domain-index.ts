import { isHostAllowed } from '../shared/keys/domains.js';
import type { AccountStore } from '../shared/store/types.js';

/**
 * Which Origin hosts any active client key allows, for CORS preflights (which carry no key).
 * Refreshed at most every `ttlMs`; a new client key's domains appear within that bound.
 */
export function clientDomainIndex(store: AccountStore, ttlMs = 30_000): (host: string) => Promise<boolean> {
  let domains: string[] = [];
  let loadedAt = -Infinity;
  let loading: Promise<void> | undefined;

  const refresh = async (): Promise<void> => {
    const now = new Date();
    const keys = await store.listKeys();
    domains = keys
      .filter((k) => k.type === 'client' && k.revokedAt === null && (k.expiresAt === null || k.expiresAt > now))
      .flatMap((k) => k.allowedDomains);
    loadedAt = Date.now();
  };

  return async (host) => {
    if (Date.now() - loadedAt > ttlMs) {
      loading ??= refresh().finally(() => {
        loading = undefined;
      });
      await loading;
    }
    return isHostAllowed(domains, host);
  };
}
