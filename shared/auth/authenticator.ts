import type { Principal } from './principal.js';

/** Where a credential came from (docs/api.md "Authentication": accepted forms differ per generation). */
export type CredentialSource = 'x-api-key' | 'query' | 'bearer';

/** Turns a presented credential into a Principal, or throws UNAUTHORIZED / EXPIRED_KEY. */
export interface Authenticator {
  authenticate(credential: string, source: CredentialSource): Promise<Principal>;
  /**
   * The principal `authenticate` would give, when it is known without waiting (a cached API key);
   * undefined otherwise, and then `authenticate` decides. Never throws.
   */
  known?(credential: string, source: CredentialSource): Principal | undefined;
}
