import type { RequestHandler } from 'express';
import type { Authenticator, CredentialSource } from '../../shared/auth/authenticator.js';
import { PERMISSION_CLAIMS, principalCan, type Permission, type Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import type { AccountStore } from '../../shared/store/types.js';
import { allowReadingRefusal } from './cors.js';
import { assertAddressAllowed } from './ip-allowlist.js';

/**
 * docs/api.md "Authentication": v1 accepts `Authorization: Bearer` and `api_key`; v2 adds `X-API-Key`
 * (recommended). A request presenting two different credentials is refused rather than
 * guessing which one was meant.
 */
const ACCEPTED: Record<'v1' | 'v2', readonly CredentialSource[]> = {
  v1: ['bearer', 'query'],
  v2: ['x-api-key', 'query', 'bearer'],
};

type Req = Parameters<RequestHandler>[0];
type Res = Parameters<RequestHandler>[1];
type Credential = { value: string; source: CredentialSource };

/**
 * v1 does not read `X-API-Key` (docs/v1.md, docs/api.md "Authentication"); a v1 request that
 * presents only that header meant to authenticate, so its 401 says how instead of "no API key".
 */
function v2HeaderOnV1(req: Req): ServiceError | undefined {
  const value = req.headers['x-api-key'];
  if (value === undefined || value === '') return undefined;
  return new ServiceError('UNAUTHORIZED', {
    details: 'X-API-Key is a /v2 header; /v1 takes Authorization: Bearer <key> (or ?api_key=<key>)',
  });
}

function credentialsOf(req: Req, sources: readonly CredentialSource[]): Credential[] {
  const found: Credential[] = [];
  for (const source of sources) {
    if (source === 'x-api-key') {
      const value = req.headers['x-api-key'];
      if (typeof value === 'string' && value !== '') found.push({ value: value.trim(), source });
    } else if (source === 'bearer') {
      const header = req.headers.authorization;
      if (header !== undefined) {
        // RFC 6750 §2.1: the scheme is case-insensitive; one space, then the token.
        const match = /^Bearer +(\S+)\s*$/i.exec(header);
        if (!match) throw new ServiceError('UNAUTHORIZED', { details: 'Authorization header must be "Bearer <API_KEY>"' });
        found.push({ value: match[1]!, source });
      }
    } else {
      // Express parses the query string on every read of req.query: a URL without one has no api_key.
      if (!req.originalUrl.includes('?')) continue;
      const value = (req.query as Record<string, unknown>).api_key;
      if (typeof value === 'string' && value !== '') found.push({ value, source });
      else if (value !== undefined) throw new ServiceError('UNAUTHORIZED', { details: 'api_key must be given once' });
    }
  }
  return found;
}

/** The key's list and the account's list are both known and empty (shared/keys/ip-allowlist.ts: an empty list allows every address). */
function allowsEveryAddress(principal: Principal): boolean {
  const keyList = principal.allowedIps;
  return (keyList === undefined || keyList.length === 0) && principal.accountAllowedIps?.length === 0;
}

/**
 * Identifies the caller when credentials are presented: sets `res.locals.principal`, or keeps the
 * reason it could not in `res.locals.authError` (thrown later by `requireCaller`, so an unknown
 * path is a 404 whatever was presented). No credentials at all is an anonymous request.
 */
export function identifyCaller(options: {
  authenticator: Authenticator;
  generation: 'v1' | 'v2';
  /** For the account's IP allow-list of bearer tokens (API keys bring theirs). */
  store: Pick<AccountStore, 'getAccount'>;
}): RequestHandler {
  const sources = ACCEPTED[options.generation];
  const { authenticator } = options;
  async function identifySlowly(req: Req, res: Res, credential: Credential, next: () => void): Promise<void> {
    try {
      const principal = await authenticator.authenticate(credential.value, credential.source);
      // req.ip: the socket's peer, or X-Forwarded-For through TRUST_PROXY's hops only (api/app.ts).
      // Two known empty lists allow every address: nothing to read or compute, not even req.ip.
      if (!allowsEveryAddress(principal)) await assertAddressAllowed(options.store, principal, req.ip);
      res.locals.principal = principal;
    } catch (err) {
      res.locals.authError = err;
    }
    next();
  }
  return function identify(req, res, next) {
    let first: Credential | undefined;
    try {
      const credentials = credentialsOf(req, sources);
      first = credentials[0];
      if (first && credentials.some((c) => c.value !== first!.value)) {
        throw new ServiceError('UNAUTHORIZED', { details: 'conflicting credentials presented' });
      }
    } catch (err) {
      res.locals.authError = err;
      return next();
    }
    if (!first) {
      const hint = options.generation === 'v1' ? v2HeaderOnV1(req) : undefined;
      if (hint) res.locals.authError = hint;
      return next();
    }
    // A cached key whose lists allow every address is answered in this turn: most requests are
    // such, and an await per request costs a microtask and its promises.
    const known = authenticator.known?.(first.value, first.source);
    if (known !== undefined && allowsEveryAddress(known)) {
      res.locals.principal = known;
      return next();
    }
    return identifySlowly(req, res, first, next);
  };
}

/** 401 (or the credential's own error) unless `identifyCaller` found a caller. */
export function requireCaller(): RequestHandler {
  return function callerRequired(req, res, next) {
    const { authError } = res.locals;
    if (authError !== undefined || !res.locals.principal) allowReadingRefusal(req, res);
    if (authError !== undefined) throw authError instanceof Error ? authError : new ServiceError('UNAUTHORIZED', { cause: authError });
    if (!res.locals.principal) throw new ServiceError('UNAUTHORIZED', { details: 'no API key presented' });
    next();
  };
}

/** 403 when the key type (or token permissions) lacks what the route needs (docs/api.md "Authentication" rule 4). */
export function requirePermission(permission: Permission): RequestHandler {
  return function checkPermission(_req, res, next) {
    const principal = res.locals.principal;
    if (!principal) throw new ServiceError('UNAUTHORIZED');
    if (!principalCan(principal, permission)) throw missingPermission(principal, permission);
    next();
  };
}

/**
 * The 403 names what the credential has: an API key's type grants permissions; an OAuth access
 * token carries a scope and a JWT a `permissions` claim, both in the token names (docs/auth.md).
 */
function missingPermission(principal: Principal, permission: Permission): ServiceError {
  const needed = PERMISSION_CLAIMS[permission];
  switch (principal.via) {
    case 'api_key':
      return new ServiceError('FORBIDDEN', { details: `this credential lacks the ${permission} permission` });
    case 'oauth':
      return new ServiceError('FORBIDDEN', {
        message: "Access token's scope does not allow this request",
        details: `the token's scope lacks ${needed}`,
      });
    case 'jwt':
      return new ServiceError('FORBIDDEN', {
        message: 'Bearer token lacks permission for this request',
        details: `the token's permissions lack ${needed}`,
      });
  }
}
