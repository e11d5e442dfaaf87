import type { RequestHandler } from 'express';
import type { Authenticator, CredentialSource } from '../../shared/auth/authenticator.js';
import { principalCan, type Permission } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';

/**
 * SPEC "Authentication": v1 accepts `Authorization: Bearer` and `api_key`; v2 adds `X-API-Key`
 * (recommended). A request presenting two different credentials is refused rather than
 * guessing which one was meant.
 */
const ACCEPTED: Record<'v1' | 'v2', readonly CredentialSource[]> = {
  v1: ['bearer', 'query'],
  v2: ['x-api-key', 'query', 'bearer'],
};

type Req = Parameters<RequestHandler>[0];

function credentialsOf(req: Req, sources: readonly CredentialSource[]): Array<{ value: string; source: CredentialSource }> {
  const found: Array<{ value: string; source: CredentialSource }> = [];
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
      const value = (req.query as Record<string, unknown>).api_key;
      if (typeof value === 'string' && value !== '') found.push({ value, source });
      else if (value !== undefined) throw new ServiceError('UNAUTHORIZED', { details: 'api_key must be given once' });
    }
  }
  return found;
}

export function authenticate(options: { authenticator: Authenticator; generation: 'v1' | 'v2' }): RequestHandler {
  const sources = ACCEPTED[options.generation];
  return async function authenticateRequest(req, res, next) {
    const credentials = credentialsOf(req, sources);
    const first = credentials[0];
    if (!first) throw new ServiceError('UNAUTHORIZED', { details: 'no API key presented' });
    if (credentials.some((c) => c.value !== first.value)) {
      throw new ServiceError('UNAUTHORIZED', { details: 'conflicting credentials presented' });
    }
    res.locals.principal = await options.authenticator.authenticate(first.value, first.source);
    next();
  };
}

/** 403 when the key type (or token permissions) lacks what the route needs (SPEC rule 4). */
export function requirePermission(permission: Permission): RequestHandler {
  return function checkPermission(_req, res, next) {
    const principal = res.locals.principal;
    if (!principal) throw new ServiceError('UNAUTHORIZED');
    if (!principalCan(principal, permission)) {
      throw new ServiceError('FORBIDDEN', { details: `this credential lacks the ${permission} permission` });
    }
    next();
  };
}
