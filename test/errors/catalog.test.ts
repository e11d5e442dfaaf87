/**
 * The error catalog is part of the contract (every code is documented, every documented code
 * exists): the contract's v2 codes keep their statuses, every other code is listed in
 * docs/decisions.md with its status, and both envelopes carry the code unchanged.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderV1Error, renderV2Error } from '../../api/http/envelopes.js';
import { ERROR_CATALOG, ERROR_CODES, ServiceError } from '../../shared/errors.js';

/** docs/api.md "v2 errors": the codes and statuses the contract itself defines. */
const CONTRACT_CODES = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  EXPIRED_KEY: 401,
  FILE_TOO_LARGE: 413,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
};

const decisions = readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'decisions.md'), 'utf8');
const addedLine = decisions.split('\n').find((l) => l.includes('Error codes added to the contract'))!;
const documented = Object.fromEntries([...addedLine.matchAll(/\b([A-Z][A-Z_]+) (\d{3})\b/g)].map((m) => [m[1]!, Number(m[2])]));

describe('error catalog', () => {
  it("keeps the contract's codes with the contract's statuses", () => {
    for (const [code, status] of Object.entries(CONTRACT_CODES))
      expect(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG]?.status, code).toBe(status);
  });

  it('documents every other code, with its status, in docs/decisions.md — and nothing more', () => {
    const added = ERROR_CODES.filter((code) => !(code in CONTRACT_CODES));
    expect(Object.fromEntries(added.map((code) => [code, ERROR_CATALOG[code].status]))).toEqual(documented);
  });

  it.each(ERROR_CODES)('%s renders in both envelopes with its code and catalog message', (code) => {
    const err = new ServiceError(code, { details: 'field: x' });
    // Every 503 says when to come back, in the body as in its Retry-After header.
    const wait = code === 'SERVICE_UNAVAILABLE' ? { retry_after: 5 } : {};
    expect(renderV2Error(err)).toEqual({
      success: false,
      error: { code, message: ERROR_CATALOG[code].message, details: 'field: x', ...wait },
    });
    expect(renderV1Error(err)).toEqual({ error: { code, message: ERROR_CATALOG[code].message, details: { info: 'field: x', ...wait } } });
  });
});
