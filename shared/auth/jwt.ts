/**
 * Enterprise JSON Web Tokens (docs/api.md "Authentication" rule 7): HS256 bearer tokens carrying sub, iss,
 * exp and permissions. What the contract leaves open is decided here and listed in docs/auth.md:
 *  - required claims: sub (the account id), iss (= JWT_ISSUER), exp, iat, permissions;
 *  - exp − iat ≤ maxLifetimeSeconds (default 900, the contract's 15-minute example), and iat no older
 *    than that: a long-lived token is refused even while its exp is in the future;
 *  - permissions: a non-empty array of known names (PERMISSION_CLAIMS); one unknown name refuses the
 *    whole token (a typo fails closed instead of silently granting less);
 *  - the account must exist and be on the Enterprise plan (403 FORBIDDEN otherwise).
 *
 * Verification follows jose's habits: the algorithm list is pinned to HS256 (so `none`, HS512 and an
 * RS256 token, alg confusion included, are refused before any claim is read), the key is at least
 * 32 bytes (RFC 7518 §3.2), the signature is checked before the claims, `typ` is optional but must be
 * "JWT" when present, and `crit` headers we do not understand are refused (jose does that).
 */
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { ServiceError } from '../errors.js';
import type { AccountStore } from '../store/types.js';
import type { TokenVerifier } from './credentials.js';
import { PERMISSION_CLAIMS, type Principal } from './principal.js';

/** RFC 7518 §3.2: an HS256 key must be at least as long as the hash output. */
export const MIN_SECRET_BYTES = 32;
export const DEFAULT_MAX_LIFETIME_SECONDS = 900;
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;
export const JWT_ALGORITHM = 'HS256';
/** Public messages: dull on purpose; the reason is in `cause`. */
export const BEARER_MESSAGES = {
  invalid: 'Invalid bearer token',
  expired: 'Bearer token has expired',
  notEnterprise: 'Bearer tokens are available to Enterprise accounts only',
} as const;

const KNOWN_PERMISSIONS: ReadonlySet<string> = new Set(Object.values(PERMISSION_CLAIMS));
/** Account ids are short printable strings; anything else is refused before a lookup. */
const SUB_RE = /^[\x21-\x7e]{1,200}$/;
const JTI_RE = /^[\x21-\x7e]{1,200}$/;

export interface JwtVerifierOptions {
  secret: string;
  issuer: string;
  store: AccountStore;
  maxLifetimeSeconds?: number;
  clockToleranceSeconds?: number;
  /** Tests: the verification time. */
  now?: () => Date;
}

export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const {
    secret,
    issuer,
    store,
    maxLifetimeSeconds = DEFAULT_MAX_LIFETIME_SECONDS,
    clockToleranceSeconds = DEFAULT_CLOCK_TOLERANCE_SECONDS,
    now,
  } = options;
  const key = secretKey(secret);
  if (typeof issuer !== 'string' || issuer === '') throw new TypeError('issuer: must be a non-empty string');
  if (!Number.isSafeInteger(maxLifetimeSeconds) || maxLifetimeSeconds < 1)
    throw new RangeError('maxLifetimeSeconds: must be a positive integer');
  if (!Number.isSafeInteger(clockToleranceSeconds) || clockToleranceSeconds < 0)
    throw new RangeError('clockToleranceSeconds: must be a non-negative integer');

  return {
    async verify(token: string): Promise<Principal> {
      let payload: JWTPayload;
      let typ: string | undefined;
      try {
        ({
          payload,
          protectedHeader: { typ },
        } = await jwtVerify(token, key, {
          algorithms: [JWT_ALGORITHM],
          issuer,
          requiredClaims: ['sub', 'iss', 'exp', 'iat'],
          // Also refuses an iat in the future (beyond the tolerance) and one older than the lifetime.
          maxTokenAge: maxLifetimeSeconds,
          clockTolerance: clockToleranceSeconds,
          ...(now ? { currentDate: now() } : {}),
        }));
      } catch (err) {
        if (err instanceof errors.JWTExpired) throw new ServiceError('EXPIRED_KEY', { message: BEARER_MESSAGES.expired, cause: err });
        throw invalidBearer(err instanceof Error ? err : new Error('JWT verification failed'));
      }
      // RFC 7519 §5.1: typ is optional; when present it must say JWT (any case, with or without "application/").
      if (typ !== undefined && typ.toLowerCase().replace(/^application\//, '') !== 'jwt')
        throw invalidBearer(new Error(`typ: ${typ} is not JWT`));
      // jose checked the type of exp and iat (numbers) and that both are present.
      const { sub, exp, iat, jti } = payload as JWTPayload & { exp: number; iat: number };
      if (typeof sub !== 'string' || !SUB_RE.test(sub)) throw invalidBearer(new Error('sub: must be an account id'));
      if (jti !== undefined && (typeof jti !== 'string' || !JTI_RE.test(jti)))
        throw invalidBearer(new Error('jti: must be a short printable string'));
      if (exp - iat > maxLifetimeSeconds)
        throw invalidBearer(new Error(`lifetime exp - iat = ${exp - iat}s exceeds ${maxLifetimeSeconds}s`));
      const permissions = parsePermissions(payload.permissions);

      const account = await store.getAccount(sub);
      if (!account) throw invalidBearer(new Error('sub: unknown account'));
      if (account.plan !== 'enterprise') {
        throw new ServiceError('FORBIDDEN', {
          message: BEARER_MESSAGES.notEnterprise,
          cause: new Error(`account plan is ${account.plan}`),
        });
      }
      return {
        accountId: account.id,
        plan: 'enterprise',
        credentialId: `jwt:${jti ?? sub}`,
        via: 'jwt',
        keyType: 'production',
        allowedDomains: [],
        permissions,
      };
    },
  };
}

export interface IssueJwtOptions {
  secret: string;
  issuer: string;
  accountId: string;
  permissions: readonly string[];
  /** Default 900 (the contract's 15-minute example); the verifier refuses more than its maxLifetimeSeconds. */
  lifetimeSeconds?: number;
  /** A token id, used as the principal's credential id; default none. */
  jti?: string;
  now?: Date;
}

/** Signs an Enterprise JWT (admin CLI, tests, docs). Validates what the verifier would refuse. */
export async function issueJwt(options: IssueJwtOptions): Promise<string> {
  const { secret, issuer, accountId, lifetimeSeconds = DEFAULT_MAX_LIFETIME_SECONDS, jti } = options;
  const key = secretKey(secret);
  if (typeof accountId !== 'string' || !SUB_RE.test(accountId)) throw new TypeError('accountId: must be an account id');
  if (!Number.isSafeInteger(lifetimeSeconds) || lifetimeSeconds < 1) throw new RangeError('lifetimeSeconds: must be a positive integer');
  const permissions = [...new Set(options.permissions)];
  if (permissions.length === 0 || permissions.some((p) => !KNOWN_PERMISSIONS.has(p))) {
    throw new RangeError(`permissions: must be one or more of ${[...KNOWN_PERMISSIONS].join(', ')}`);
  }
  const iat = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const jwt = new SignJWT({ permissions })
    .setProtectedHeader({ alg: JWT_ALGORITHM, typ: 'JWT' })
    .setSubject(accountId)
    .setIssuer(issuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetimeSeconds);
  if (jti !== undefined) jwt.setJti(jti);
  return jwt.sign(key);
}

function secretKey(secret: string): Uint8Array {
  if (typeof secret !== 'string') throw new TypeError('secret: must be a string');
  const key = new TextEncoder().encode(secret);
  if (key.length < MIN_SECRET_BYTES) throw new RangeError(`secret: must be at least ${MIN_SECRET_BYTES} bytes`);
  return key;
}

/** The `permissions` claim: a non-empty array of known permissions (both kinds of bearer JWT). */
export function parsePermissions(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw invalidBearer(new Error('permissions: must be a non-empty array'));
  const out = new Set<string>();
  for (const p of value) {
    if (typeof p !== 'string' || !KNOWN_PERMISSIONS.has(p))
      throw invalidBearer(new Error(`permissions: unknown permission ${JSON.stringify(p)}`));
    out.add(p);
  }
  return [...out];
}

/** The one public answer to a bad bearer token; the reason stays in `cause`. */
export function invalidBearer(cause: Error): ServiceError {
  return new ServiceError('UNAUTHORIZED', { message: BEARER_MESSAGES.invalid, cause });
}
