/**
 * One-time links: the first owner's password at first start, a member's first password, a password
 * reset. A link is good for 24 hours and one use; only its hash is stored, and issuing a new link
 * for a person voids their earlier unused ones. The token travels in the URL's fragment
 * (`/dashboard/set-password#token=…`), which browsers never send to a server, so it does not land
 * in access logs, proxies or Referer headers; the page posts it once.
 */
import type { LinkPurpose } from '../store/dashboard-types.js';
import type { AccountStore } from '../store/types.js';
import { generateToken, hashToken } from './secret-tokens.js';

export const LINK_LIFETIME_MS = 24 * 3_600_000;
/** Where the dashboard's set-password page lives, below the deployment's origin. */
export const SET_PASSWORD_PATH = '/dashboard/set-password';

export interface IssuedLink {
  /** The whole link to hand to the person, once; never stored. */
  url: string;
  expiresAt: Date;
}

export async function issueOneTimeLink(
  store: Pick<AccountStore, 'oneTimeLinks'>,
  input: { userId: string; purpose: LinkPurpose; baseUrl: string; now?: Date },
): Promise<IssuedLink> {
  const now = input.now ?? new Date();
  const origin = new URL(input.baseUrl).origin;
  const token = generateToken('link');
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS);
  await store.oneTimeLinks.create({ tokenHash: hashToken(token), userId: input.userId, purpose: input.purpose, expiresAt, now });
  return { url: `${origin}${SET_PASSWORD_PATH}#token=${token}`, expiresAt };
}
