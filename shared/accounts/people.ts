/**
 * Adding people to accounts, shared by the management API (inviting a member), the admin CLI
 * (`users create`) and first start (the first owner). A person without a password gets a setup
 * link; one who already has a password is simply added (they sign in as before).
 */
import { invalidInput } from '../errors.js';
import type { Role, UserRecord } from '../store/dashboard-types.js';
import type { AccountStore } from '../store/types.js';
import { issueOneTimeLink, type IssuedLink } from './one-time-links.js';

const MAX_EMAIL_LENGTH = 254;
const MAX_NAME_LENGTH = 100;
/**
 * Deliberately loose (one @, no spaces, a dot-free host allowed for `admin@localhost`): the address
 * is an identifier the person signs in with, and nothing is ever mailed to it.
 */
const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

export function validateEmail(email: unknown): string {
  const value = typeof email === 'string' ? email.normalize('NFC').trim() : '';
  if (value.length > MAX_EMAIL_LENGTH || !EMAIL_RE.test(value))
    throw invalidInput('email', 'Give an email address such as name@example.com');
  return value;
}

export function validateName(name: unknown): string {
  const value = typeof name === 'string' ? name.normalize('NFC').trim() : '';
  if (value.length > MAX_NAME_LENGTH) throw invalidInput('name', `A name is at most ${MAX_NAME_LENGTH} characters`);
  return value;
}

export interface AddedPerson {
  user: UserRecord;
  /** True when the person did not exist before. */
  created: boolean;
  /** False when they were already a member of the account (nothing changed). */
  added: boolean;
  /** Set when the person has no password yet: hand it to them once. */
  setupLink: IssuedLink | undefined;
}

/** Creates the person if needed and makes them a member with `role`. */
export async function addPersonToAccount(
  store: Pick<AccountStore, 'users' | 'oneTimeLinks' | 'getAccount'>,
  input: {
    accountId: string;
    email: string;
    name?: string;
    role: Role;
    baseUrl: string;
    now?: Date;
    /** false: never issue a setup link (the caller found the person belongs elsewhere). Default true. */
    setupLink?: boolean;
  },
): Promise<AddedPerson> {
  const email = validateEmail(input.email);
  const name = validateName(input.name ?? '');
  if (!(await store.getAccount(input.accountId))) throw invalidInput('accountId', 'Unknown account');
  let user = await store.users.createUser({ email, name });
  const created = user !== undefined;
  user ??= (await store.users.findUserByEmail(email))?.user;
  if (!user) throw new Error('person vanished while being added');
  const added = await store.users.addMembership(input.accountId, user.id, input.role);
  const setupLink =
    user.hasPassword || input.setupLink === false
      ? undefined
      : await issueOneTimeLink(store, {
          userId: user.id,
          purpose: 'setup',
          baseUrl: input.baseUrl,
          ...(input.now ? { now: input.now } : {}),
        });
  return { user, created, added, setupLink };
}
