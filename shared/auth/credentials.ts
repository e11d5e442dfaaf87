import { authenticateApiKey, cachedApiKey } from '../keys/api-keys.js';
import type { AccountStore } from '../store/types.js';
import type { Authenticator, CredentialSource } from './authenticator.js';
import type { Principal } from './principal.js';

/** A bearer token that is a JWS compact serialisation (RFC 7515 §3.1), not an API key. */
export function looksLikeJwt(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(credential);
}

export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
}

/**
 * API keys in any accepted place; Enterprise JWTs and OAuth access tokens as bearer tokens
 * (docs/api.md "Authentication" rules 7-8), when their verifiers are configured.
 */
export function createAuthenticator(options: { store: AccountStore; bearerVerifiers?: TokenVerifier[] }): Authenticator {
  const verifiers = options.bearerVerifiers ?? [];
  const verifiedByToken = (credential: string, source: CredentialSource): boolean =>
    source === 'bearer' && verifiers.length > 0 && !credential.startsWith('s224_');
  return {
    known(credential: string, source: CredentialSource): Principal | undefined {
      return verifiedByToken(credential, source) ? undefined : cachedApiKey(options.store, credential);
    },
    async authenticate(credential: string, source: CredentialSource): Promise<Principal> {
      if (verifiedByToken(credential, source)) {
        let lastError: unknown;
        for (const verifier of verifiers) {
          try {
            return await verifier.verify(credential);
          } catch (err) {
            lastError = err;
          }
        }
        throw lastError;
      }
      return authenticateApiKey(options.store, credential);
    },
  };
}
