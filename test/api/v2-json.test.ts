import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api-server.js';
import { startTarget, TARGETS, type Target } from '../helpers/targets.js';
import { SHA224_ABC as ABC, sha224Bytes } from '../helpers/digests.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(TARGETS)('/v2 JSON endpoints on %s', (target) => {
  let s: Target;
  let h: Record<string, string>;
  beforeAll(async () => {
    s = await startTarget(target);
    h = { 'x-api-key': s.keys.production };
  });
  afterAll(() => s.close());

  describe('POST /v2/hash', () => {
    it('answers the contract fields with exact types', async () => {
      const r = await postJson(`${s.url}/v2/hash`, { data: 'abc' }, h);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['algorithm', 'encoding', 'hash', 'processing_time_ms', 'success', 'timestamp']);
      expect(r.body).toMatchObject({ success: true, hash: ABC, algorithm: 'SHA-224', encoding: 'hex' });
      expect(r.body.timestamp).toMatch(ISO_MS);
      expect(Number.isInteger(r.body.processing_time_ms)).toBe(true);
      expect(r.headers.get('content-type')).toMatch(/application\/json/);
    });

    it.each([
      ['utf8', 'héllo ☃ 𝄞', Buffer.from('héllo ☃ 𝄞', 'utf8')],
      ['hex', '00ff10AB', Buffer.from('00ff10ab', 'hex')],
      ['base64', 'AP8Qqw==', Buffer.from('AP8Qqw==', 'base64')],
      ['base64', 'AP8Qqw', Buffer.from('AP8Qqw', 'base64url')],
      ['hex', '', Buffer.alloc(0)],
    ])('decodes %s input %j', async (encoding, data, bytes) => {
      const r = await postJson(`${s.url}/v2/hash`, { data, encoding }, h);
      expect(r.body.hash).toBe(sha224Bytes(bytes).toString('hex'));
    });

    it.each([
      ['hex', 'hex', (d: Buffer) => d.toString('hex')],
      ['base64', 'base64', (d: Buffer) => d.toString('base64')],
      ['binary', 'base64', (d: Buffer) => d.toString('base64')],
    ])('output %s is encoded as %s', async (output, encoding, fmt) => {
      const r = await postJson(`${s.url}/v2/hash`, { data: 'abc', output }, h);
      expect(r.body).toMatchObject({ hash: fmt(sha224Bytes('abc')), encoding });
    });

    it.each([
      [{}, 'The data parameter is required', 'field: data'],
      [{ data: 5 }, 'data must be a string', 'field: data'],
      [{ data: 'x', encoding: 'latin1' }, 'encoding must be one of utf8, hex, base64', 'field: encoding'],
      [{ data: 'x', output: 'octal' }, 'output must be one of hex, base64, binary', 'field: output'],
      [{ data: 'abc', encoding: 'hex' }, 'data is not valid hex (even number of 0-9a-f characters)', 'field: data'],
      [{ data: 'zz', encoding: 'hex' }, 'data is not valid hex (even number of 0-9a-f characters)', 'field: data'],
      [{ data: 'ab$c', encoding: 'base64' }, 'data is not valid base64', 'field: data'],
      [{ data: 'abcde', encoding: 'base64' }, 'data is not valid base64', 'field: data'],
      [[1, 2], 'Request body must be a JSON object', 'field: body'],
    ])('refuses %j with 400 INVALID_INPUT', async (body, message, details) => {
      const r = await postJson(`${s.url}/v2/hash`, body, h);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ success: false, error: { code: 'INVALID_INPUT', message, details } });
    });

    it('refuses malformed JSON with 400, not 500', async () => {
      const r = await postJson(`${s.url}/v2/hash`, '{"data": "abc"', h);
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual({ code: 'INVALID_INPUT', message: 'Request body is not valid JSON', details: 'field: body' });
    });

    it('refuses a body over MAX_JSON_BYTES with 413', async () => {
      const r = await postJson(`${s.url}/v2/hash`, { data: 'a'.repeat(s.config.MAX_JSON_BYTES) }, h);
      expect(r.status).toBe(413);
      expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    });
  });

  describe('POST /v2/verify', () => {
    it('answers valid:true for a matching digest, upper- or lower-case', async () => {
      for (const hash of [ABC, ABC.toUpperCase()]) {
        const r = await postJson(`${s.url}/v2/verify`, { data: 'abc', hash }, h);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ success: true, valid: true, message: 'Hash matches the data', expected_hash: ABC, provided_hash: hash });
      }
    });

    it('answers valid:false for another digest', async () => {
      const other = sha224Bytes('abd').toString('hex');
      const r = await postJson(`${s.url}/v2/verify`, { data: 'abc', hash: other }, h);
      expect(r.body).toEqual({
        success: true,
        valid: false,
        message: 'Hash does not match the data',
        expected_hash: ABC,
        provided_hash: other,
      });
    });

    it.each([
      [{ hash: ABC }, 'The data parameter is required', 'field: data'],
      [{ data: 'abc' }, 'The hash parameter is required', 'field: hash'],
      [{ data: 'abc', hash: 'abc' }, 'hash must be a 56-character hexadecimal SHA-224 digest', 'field: hash'],
      [{ data: 'abc', hash: ABC.slice(0, 54) + 'zz' }, 'hash must be a 56-character hexadecimal SHA-224 digest', 'field: hash'],
    ])('refuses %j', async (body, message, details) => {
      const r = await postJson(`${s.url}/v2/verify`, body, h);
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual({ code: 'INVALID_INPUT', message, details });
    });
  });

  describe('POST /v2/hmac', () => {
    it('computes HMAC-SHA-224 with each key encoding', async () => {
      for (const [key, key_encoding, keyBytes] of [
        ['secret', 'utf8', Buffer.from('secret')],
        ['0b0b0b0b', 'hex', Buffer.from('0b0b0b0b', 'hex')],
        ['c2VjcmV0', 'base64', Buffer.from('secret')],
      ] as const) {
        const r = await postJson(`${s.url}/v2/hmac`, { data: 'message', key, key_encoding }, h);
        expect(r.status).toBe(200);
        expect(Object.keys(r.body).sort()).toEqual(['algorithm', 'encoding', 'hmac', 'processing_time_ms', 'success', 'timestamp']);
        expect(r.body).toMatchObject({
          success: true,
          algorithm: 'HMAC-SHA-224',
          encoding: 'hex',
          hmac: createHmac('sha224', keyBytes).update('message').digest('hex'),
        });
      }
    });

    it('refuses a missing key and a bad key encoding', async () => {
      const missing = await postJson(`${s.url}/v2/hmac`, { data: 'm' }, h);
      expect(missing.body.error).toEqual({ code: 'INVALID_INPUT', message: 'The key parameter is required', details: 'field: key' });
      const bad = await postJson(`${s.url}/v2/hmac`, { data: 'm', key: 'xyz', key_encoding: 'hex' }, h);
      expect(bad.body.error).toEqual({
        code: 'INVALID_INPUT',
        message: 'key is not valid hex (even number of 0-9a-f characters)',
        details: 'field: key',
      });
    });
  });

  describe('POST /v2/batch', () => {
    it('keeps request order, each result with id and hash', async () => {
      const items = Array.from({ length: 1000 }, (_, i) => ({ id: `item-${999 - i}`, data: `payload ${i}` }));
      const r = await postJson(`${s.url}/v2/batch`, { items }, h);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ success: true, count: 1000, algorithm: 'SHA-224', encoding: 'hex' });
      expect(r.body.results).toEqual(items.map((it) => ({ id: it.id, hash: sha224Bytes(it.data).toString('hex') })));
    });

    it.each([
      [{}, 'The items parameter is required', 'field: items'],
      [{ items: [] }, 'items must hold at least one entry', 'field: items'],
      [
        { items: Array.from({ length: 1001 }, (_, i) => ({ id: String(i), data: 'x' })) },
        'items may hold at most 1000 entries',
        'field: items',
      ],
      [{ items: [{ id: 'a', data: 'x' }, { data: 'y' }] }, 'The id parameter is required', 'field: items[1].id'],
      [
        {
          items: [
            { id: 'a', data: 'x' },
            { id: 'b', data: 'q' },
          ],
          encoding: 'hex',
        },
        'items[0].data is not valid hex (even number of 0-9a-f characters)',
        'field: items[0].data',
      ],
      [{ items: [{ id: 'a', data: 'x' }], parallel: 'yes' }, 'parallel must be a boolean', 'field: parallel'],
    ])('refuses %#', async (body, message, details) => {
      const r = await postJson(`${s.url}/v2/batch`, body, h);
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual({ code: 'INVALID_INPUT', message, details });
    });
  });

  describe('routing', () => {
    it('answers unknown endpoints with a JSON 404 in the v2 envelope', async () => {
      const res = await fetch(`${s.url}/v2/nope`, { headers: h });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        success: false,
        error: { code: 'NOT_FOUND', message: 'Resource or endpoint does not exist', details: 'no endpoint GET /v2/nope' },
      });
      const root = await fetch(`${s.url}/elsewhere`);
      expect(root.status).toBe(404);
      expect((await root.json()).error.code).toBe('NOT_FOUND');
    });

    it('serves an OpenAPI 3.1 document generated from the validating schemas', async () => {
      const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as {
        openapi: string;
        paths: Record<string, Record<string, unknown>>;
        components: { schemas: Record<string, { required?: string[]; properties: Record<string, { enum?: string[] }> }> };
      };
      expect(doc.openapi).toBe('3.1.0');
      for (const path of ['/v2/hash', '/v2/verify', '/v2/hmac', '/v2/batch', '/v2/file', '/v2/stream'])
        expect(Object.keys(doc.paths[path] ?? {})).toEqual(['post']);
      expect(Object.keys(doc.paths['/v2/jobs/{id}'] ?? {})).toEqual(['get']);
      const hash = doc.components.schemas.HashRequest!;
      expect(hash.required).toEqual(['data']);
      expect(hash.properties.encoding!.enum).toEqual(['utf8', 'hex', 'base64']);
      expect(hash.properties.output!.enum).toEqual(['hex', 'base64', 'binary']);
    });

    it('answers a wrong method with 405 and Allow', async () => {
      const res = await fetch(`${s.url}/v2/hash`, { headers: h });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect((await res.json()).error.code).toBe('METHOD_NOT_ALLOWED');
    });
  });
});
