/**
 * The audit every test server runs over its /v1 and /v2 answers (test/helpers/openapi-conformance.ts)
 * can fail: an undocumented status, a body missing a required field or of the wrong type, and a
 * non-JSON body are each reported; what the document says passes.
 */
import { describe, expect, it } from 'vitest';
import { offDocument } from '../helpers/openapi-conformance.js';
import { SHA224_ABC } from '../helpers/digests.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const hashBody = {
  success: true,
  hash: SHA224_ABC,
  algorithm: 'SHA-224',
  encoding: 'hex',
  timestamp: '2026-11-23T12:00:00.000Z',
  processing_time_ms: 0,
};

describe('the OpenAPI conformance audit', () => {
  it('passes a documented answer', () => {
    expect(offDocument('POST', '/v2/hash', 200, JSON_TYPE, JSON.stringify(hashBody))).toBeUndefined();
    expect(offDocument('GET', '/v2/jobs/abc?x=1', 404, JSON_TYPE, JSON.stringify(errorBody('NOT_FOUND')))).toBeUndefined();
  });

  it('reports an undocumented status', () => {
    expect(offDocument('POST', '/v2/hash', 202, JSON_TYPE, '{}')).toMatch(/^POST \/v2\/hash 202: status not documented/);
  });

  it('reports a body that does not match its schema', () => {
    const { processing_time_ms: _dropped, ...missing } = hashBody;
    expect(offDocument('POST', '/v2/hash', 200, JSON_TYPE, JSON.stringify(missing))).toMatch(/processing_time_ms/);
    expect(offDocument('POST', '/v2/hash', 200, JSON_TYPE, JSON.stringify({ ...hashBody, success: false }))).toMatch(/POST \/v2\/hash 200/);
    expect(offDocument('GET', '/v1/status', 200, JSON_TYPE, JSON.stringify({ status: 'operational' }))).toMatch(/GET \/v1\/status 200/);
  });

  it('reports a body that is not JSON or not labelled JSON', () => {
    expect(offDocument('POST', '/v2/hash', 200, JSON_TYPE, 'not json')).toMatch(/not JSON/);
    expect(offDocument('POST', '/v2/hash', 200, 'text/plain', JSON.stringify(hashBody))).toMatch(/content-type text\/plain/);
  });

  it('leaves what no operation answers to the generation and the edge: unknown paths and methods, HTTPS redirects', () => {
    expect(offDocument('POST', '/v2/nope', 404, JSON_TYPE, 'x')).toBeUndefined();
    expect(offDocument('DELETE', '/v2/hash', 405, JSON_TYPE, 'x')).toBeUndefined();
    expect(offDocument('GET', '/healthz', 200, 'text/plain', 'ok')).toBeUndefined();
    expect(offDocument('POST', '/v1/hash', 308, 'text/plain', 'Permanent Redirect')).toBeUndefined();
  });
});

function errorBody(code: string) {
  return { success: false, error: { code, message: 'Resource or endpoint does not exist', details: 'no such job' } };
}
