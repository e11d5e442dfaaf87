/**
 * IP allow-lists enforced (docs/api.md "Authentication" rule 6; docs/decisions.md "Dashboard and
 * accounts"): a request must come from an address on its key's list and on its account's list (an
 * empty list allows every address), or it is refused with 403 IP_NOT_ALLOWED. Applies to every
 * credential: API keys carry both lists from their lookup; for JWTs and OAuth tokens the account's
 * list is read here.
 *
 * The address is the socket's peer, or the client X-Forwarded-For names when TRUST_PROXY says which
 * hops to believe (api/http/client-address.ts): without TRUST_PROXY a forged X-Forwarded-For
 * changes nothing.
 */
import type { Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import type { AccountStore } from '../../shared/store/types.js';
import { isAddressAllowed } from '../../shared/keys/ip-allowlist.js';

export async function assertAddressAllowed(
  store: Pick<AccountStore, 'getAccount'>,
  principal: Principal,
  address: string | undefined,
): Promise<void> {
  const keyList = principal.allowedIps ?? [];
  const accountList = principal.accountAllowedIps ?? (await store.getAccount(principal.accountId))?.allowedIps ?? [];
  if (isAddressAllowed(address, keyList, accountList)) return;
  throw new ServiceError('IP_NOT_ALLOWED', {
    details: `requests from ${address ?? 'an unknown address'} are not on the ${keyList.length > 0 && !isAddressAllowed(address, keyList, []) ? "key's" : "account's"} IP allow-list`,
  });
}
