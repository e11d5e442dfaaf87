/**
 * JWTs signed with an account's own key (docs/decisions.md "Dashboard and accounts"): the token's
 * `iss` is the account id, its header's `kid` names one of the account's registered public keys,
 * `aud` must be JWT_AUDIENCE. The key is looked up on every request, so deleting or replacing it
 * cuts that account's tokens off at once; one account's key can never sign for another, because
 * the key is found under the account the token names.
 *
 * Claims and lifetimes follow the operator-secret tokens (shared/auth/jwt.ts): sub, iss, exp, iat,
 * permissions required; exp − iat ≤ 900 s; 30 s clock tolerance; one unknown permission refuses the
 * token; the account must be on the Enterprise plan. Algorithms are pinned to the key's own (ES256
 * or EdDSA), so `none`, HS256 with the public key as secret, or any other alg is refused first.
 */
import { decodeJwt, decodeProtectedHeader, errors, importJWK, jwtVerify, type JWTPayload } from 'jose';
import type { TokenVerifier } from '../../shared/auth/credentials.js';
import { BEARER_MESSAGES, invalidBearer, parsePermissions } from '../../shared/auth/jwt.js';
import type { Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import type { AccountJwtKeyRecord } from '../../shared/store/dashboard-types.js';
import type { AccountStore } from '../../shared/store/types.js';

export const MAX_LIFETIME_SECONDS = 900;
export const CLOCK_TOLERANCE_SECONDS = 30;
/** last_used_at of a key is written at most this often per process. */
const TOUCH_INTERVAL_MS = 60_000;
const ACCOUNT_ID_RE = /^acc_[\x21-\x7e]{1,196}$/;
const PRINTABLE_RE = /^[\x21-\x7e]{1,200}$/;

/** Whether a JWT names an account as its issuer (so it is for this verifier), read without verifying. */
export function isAccountSignedJwt(token: string): boolean {
  try {
    const iss = decodeJwt(token).iss;
    return typeof iss === 'string' && ACCOUNT_ID_RE.test(iss);
  } catch {
    return false;
  }
}

export interface AccountJwtVerifierOptions {
  store: Pick<AccountStore, 'getAccount' | 'jwtKeys'>;
  audience: string;
  now?: () => Date;
}

export function createAccountJwtVerifier(options: AccountJwtVerifierOptions): TokenVerifier {
  const { store, audience } = options;
  const now = options.now ?? (() => new Date());
  const touched = new Map<string, number>();

  return {
    async verify(token: string): Promise<Principal> {
      let kid: unknown;
      let alg: unknown;
      let iss: unknown;
      try {
        ({ kid, alg } = decodeProtectedHeader(token));
        iss = decodeJwt(token).iss;
      } catch (err) {
        throw invalidBearer(err instanceof Error ? err : new Error('not a JWT'));
      }
      if (typeof iss !== 'string' || !ACCOUNT_ID_RE.test(iss)) throw invalidBearer(new Error('iss: not an account id'));
      if (typeof kid !== 'string' || !PRINTABLE_RE.test(kid)) throw invalidBearer(new Error('kid: missing'));
      const key = await store.jwtKeys.find(iss, kid);
      if (!key) throw invalidBearer(new Error('kid: no such key for the account'));
      if (alg !== key.alg) throw invalidBearer(new Error(`alg: ${String(alg)} is not the key's ${key.alg}`));

      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await importJWK({ ...key.publicJwk }, key.alg), {
          algorithms: [key.alg],
          issuer: iss,
          audience,
          requiredClaims: ['sub', 'iss', 'aud', 'exp', 'iat'],
          maxTokenAge: MAX_LIFETIME_SECONDS,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: now(),
        }));
      } catch (err) {
        if (err instanceof errors.JWTExpired) throw new ServiceError('EXPIRED_KEY', { message: BEARER_MESSAGES.expired, cause: err });
        throw invalidBearer(err instanceof Error ? err : new Error('JWT verification failed'));
      }
      const { sub, exp, iat, jti } = payload as JWTPayload & { exp: number; iat: number };
      if (typeof sub !== 'string' || !PRINTABLE_RE.test(sub)) throw invalidBearer(new Error('sub: must be a short printable string'));
      if (jti !== undefined && (typeof jti !== 'string' || !PRINTABLE_RE.test(jti)))
        throw invalidBearer(new Error('jti: must be a short printable string'));
      if (exp - iat > MAX_LIFETIME_SECONDS)
        throw invalidBearer(new Error(`lifetime exp - iat = ${exp - iat}s exceeds ${MAX_LIFETIME_SECONDS}s`));
      const permissions = parsePermissions(payload.permissions);

      const account = await store.getAccount(iss);
      if (!account) throw invalidBearer(new Error('iss: unknown account'));
      if (account.plan !== 'enterprise') {
        throw new ServiceError('FORBIDDEN', {
          message: BEARER_MESSAGES.notEnterprise,
          cause: new Error(`account plan is ${account.plan}`),
        });
      }
      touch(key);
      return {
        accountId: account.id,
        plan: 'enterprise',
        credentialId: `jwt:${kid}:${jti ?? sub}`,
        via: 'jwt',
        keyType: 'production',
        allowedDomains: [],
        permissions,
      };
    },
  };

  function touch(key: AccountJwtKeyRecord): void {
    const at = now();
    const last = touched.get(key.id);
    if (last !== undefined && at.getTime() - last < TOUCH_INTERVAL_MS) return;
    touched.set(key.id, at.getTime());
    void store.jwtKeys.touch(key.id, at).catch(() => undefined);
  }
}
