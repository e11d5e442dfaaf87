/** v1 Set A behaviour (docs/api.md "v1 Set A"): encodings, output formats, verification, HMAC, uploads, usage. */
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson } from '../helpers/api-server.js';
import { ONE_NODE_CLUSTER, startTarget, TARGETS, type Target } from '../helpers/targets.js';
import { SHA224_ABC as ABC, sha224Bytes } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';

const invalid = (message: string, field: string) => ({ error: { code: 'INVALID_INPUT', message, details: { info: `field: ${field}` } } });

describe.each(TARGETS)('/v1 Set A on %s', (target) => {
  let s: Target;
  let h: Record<string, string>;
  beforeAll(async () => {
    s = await startTarget(target, {}, ONE_NODE_CLUSTER);
    h = { authorization: `Bearer ${s.keys.production}` };
  });
  afterAll(() => s.close());

  describe('POST /v1/hash', () => {
    it.each([
      ['utf8', 'héllo ☃ 𝄞', Buffer.from('héllo ☃ 𝄞', 'utf8')],
      ['hex', '00ff10AB', Buffer.from('00ff10ab', 'hex')],
      ['base64', 'AP8Qqw==', Buffer.from('AP8Qqw==', 'base64')],
      ['hex', '', Buffer.alloc(0)],
    ])('decodes %s input %j', async (encoding, data, bytes) => {
      const r = await postJson(`${s.url}/v1/hash`, { data, encoding }, h);
      expect(r.status).toBe(200);
      expect(r.body.hash).toBe(sha224Bytes(bytes).toString('hex'));
    });

    it.each([
      ['hex', 'hex', (d: Buffer) => d.toString('hex')],
      ['base64', 'base64', (d: Buffer) => d.toString('base64')],
      ['binary', 'base64', (d: Buffer) => d.toString('base64')],
    ])('outputFormat %s is returned as %s', async (outputFormat, encoding, fmt) => {
      const r = await postJson(`${s.url}/v1/hash`, { data: 'abc', outputFormat }, h);
      expect(r.body).toMatchObject({ hash: fmt(sha224Bytes('abc')), encoding, algorithm: 'sha224' });
    });

    it.each([
      [{}, 'The data parameter is required', 'data'],
      [{ data: 5 }, 'data must be a string', 'data'],
      [{ data: 'x', encoding: 'latin1' }, 'encoding must be one of utf8, hex, base64', 'encoding'],
      [{ data: 'x', outputFormat: 'octal' }, 'outputFormat must be one of hex, base64, binary', 'outputFormat'],
      [{ data: 'abc', encoding: 'hex' }, 'data is not valid hex (even number of 0-9a-f characters)', 'data'],
      [{ data: 'ab$c', encoding: 'base64' }, 'data is not valid base64', 'data'],
    ])('refuses %j with 400 INVALID_INPUT in the v1 body', async (body, message, field) => {
      const r = await postJson(`${s.url}/v1/hash`, body, h);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(invalid(message, field));
    });

    it('ignores the v2 field name `output` (Set A says outputFormat)', async () => {
      const r = await postJson(`${s.url}/v1/hash`, { data: 'abc', output: 'base64' }, h);
      expect(r.body).toMatchObject({ hash: ABC, encoding: 'hex' });
    });
  });

  describe('POST /v1/verify', () => {
    it('verified:true for the matching digest in either case, false for another', async () => {
      for (const hash of [ABC, ABC.toUpperCase()]) {
        const r = await postJson(`${s.url}/v1/verify`, { data: 'abc', hash }, h);
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ success: true, verified: true, algorithm: 'sha224' });
      }
      const other = await postJson(`${s.url}/v1/verify`, { data: 'abd', hash: ABC }, h);
      expect(other.status).toBe(200);
      expect(other.body).toMatchObject({ success: true, verified: false });
    });

    it('decodes the data with encoding', async () => {
      const r = await postJson(`${s.url}/v1/verify`, { data: Buffer.from('abc').toString('base64'), encoding: 'base64', hash: ABC }, h);
      expect(r.body.verified).toBe(true);
    });

    it('a Set B body (text) answers in the Set B text shape', async () => {
      const r = await postJson(`${s.url}/v1/verify`, { text: 'abc', hash: ABC.toUpperCase() }, h);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['computed', 'expected', 'timestamp', 'valid']);
      expect(r.body).toMatchObject({ valid: true, expected: ABC.toUpperCase(), computed: ABC });
    });

    it.each([
      [{ hash: ABC }, 'The data parameter is required', 'data'],
      [{ data: 'abc' }, 'The hash parameter is required', 'hash'],
      [{ data: 'abc', hash: 'abc' }, 'hash must be a 56-character hexadecimal SHA-224 digest', 'hash'],
      [{ data: 'abc', text: 'abc', hash: ABC }, 'give either data (Set A) or text (Set B), not both', 'text'],
    ])('refuses %j', async (body, message, field) => {
      const r = await postJson(`${s.url}/v1/verify`, body, h);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(invalid(message, field));
    });
  });

  describe('POST /v1/hmac', () => {
    it('computes HMAC-SHA-224 with each key and data encoding', async () => {
      for (const [key, keyEncoding, keyBytes] of [
        ['secret', 'utf8', Buffer.from('secret')],
        ['0b0b0b0b', 'hex', Buffer.from('0b0b0b0b', 'hex')],
        ['c2VjcmV0', 'base64', Buffer.from('secret')],
      ] as const) {
        const r = await postJson(`${s.url}/v1/hmac`, { data: '6d657373616765', encoding: 'hex', key, keyEncoding }, h);
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({
          success: true,
          algorithm: 'sha224',
          encoding: 'hex',
          hmac: createHmac('sha224', keyBytes).update('message').digest('hex'),
        });
      }
    });

    it('outputFormat base64; binary is not offered for HMAC', async () => {
      const r = await postJson(`${s.url}/v1/hmac`, { data: 'message', key: 'secret', outputFormat: 'base64' }, h);
      expect(r.body).toMatchObject({ encoding: 'base64', hmac: createHmac('sha224', 'secret').update('message').digest('base64') });
      const bin = await postJson(`${s.url}/v1/hmac`, { data: 'message', key: 'secret', outputFormat: 'binary' }, h);
      expect(bin.status).toBe(400);
      expect(bin.body).toEqual(invalid('outputFormat must be one of hex, base64', 'outputFormat'));
    });

    it('refuses a missing key and a key that does not decode', async () => {
      expect((await postJson(`${s.url}/v1/hmac`, { data: 'x' }, h)).body).toEqual(invalid('The key parameter is required', 'key'));
      expect((await postJson(`${s.url}/v1/hmac`, { data: 'x', key: 'zz', keyEncoding: 'hex' }, h)).body).toEqual(
        invalid('key is not valid hex (even number of 0-9a-f characters)', 'key'),
      );
    });
  });

  describe('POST /v1/file/hash', () => {
    const form = (bytes: Buffer, fields: Record<string, string> = {}, field = 'file') =>
      fileForm(bytes, { fields, field, filename: 'photo.jpg' });
    const post = async (body: FormData, headers = h) => {
      const res = await fetch(`${s.url}/v1/file/hash`, { method: 'POST', headers, body });
      return { status: res.status, headers: res.headers, body: await res.json() };
    };

    it('hashes the file and reports fileName and fileSize; outputFormat base64', async () => {
      const bytes = randomBytes(300_000);
      const hex = await post(form(bytes));
      expect(hex.body).toMatchObject({
        hash: sha224Bytes(bytes).toString('hex'),
        encoding: 'hex',
        fileName: 'photo.jpg',
        fileSize: bytes.length,
      });
      const b64 = await post(form(bytes, { outputFormat: 'base64' }));
      expect(b64.body).toMatchObject({ hash: sha224Bytes(bytes).toString('base64'), encoding: 'base64' });
    });

    it('refuses a missing file field and a bad outputFormat with 400', async () => {
      const missing = await post(form(Buffer.from('x'), {}, 'upload'));
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual(invalid('multipart field "file" (a file) is required', 'file'));
      const bad = await post(form(Buffer.from('x'), { outputFormat: 'binary' }));
      expect(bad.body).toEqual(invalid('outputFormat must be one of hex, base64', 'outputFormat'));
    });

    it("takes up to the plan's v1 file size and answers 413 FILE_TOO_LARGE past it", async () => {
      const free = await s.newKey({ plan: 'free' });
      const fh = { authorization: `Bearer ${free}` };
      const limit = 5 * 1024 * 1024;
      const ok = await post(form(Buffer.alloc(limit, 1)), fh);
      expect(ok.status).toBe(200);
      expect(ok.body.fileSize).toBe(limit);
      const over = await post(form(Buffer.alloc(limit + 1, 1)), fh);
      expect(over.status).toBe(413);
      expect(over.body.error).toMatchObject({ code: 'FILE_TOO_LARGE' });
      expect(over.body.success).toBeUndefined();
    });
  });

  describe('GET /v1/usage', () => {
    it('counts each accepted request of the day, across generations; reading usage counts in none', async () => {
      const secret = await s.newKey({ plan: 'basic' });
      const k = { authorization: `Bearer ${secret}` };
      const first = await getJson(`${s.url}/v1/usage`, k);
      expect(first.body.account).toMatchObject({
        tier: 'Developer',
        quota: { daily: 10000, used: 0, remaining: 10000 },
        rateLimit: { requestsPerSecond: 20, maxFileSize: 25 * 1024 * 1024 },
      });
      await postJson(`${s.url}/v1/hash`, { data: 'a' }, k);
      await postJson(`${s.url}/v1/hash/text`, { text: 'a' }, k);
      await postJson(`${s.url}/v2/hash`, { data: 'a' }, { 'x-api-key': secret });
      const after = await getJson(`${s.url}/v1/usage`, k);
      expect(after.body.account.quota).toMatchObject({ used: 3, remaining: 9997 });
    });

    it("reports a development key's own rate", async () => {
      const secret = await s.newKey({ plan: 'basic', type: 'development' });
      const r = await getJson(`${s.url}/v1/usage`, { authorization: `Bearer ${secret}` });
      expect(r.body.account.rateLimit.requestsPerSecond).toBe(4);
    });

    it('is open to read-only keys', async () => {
      const r = await getJson(`${s.url}/v1/usage`, { authorization: `Bearer ${s.keys.read_only}` });
      expect(r.status).toBe(200);
      expect(r.body.success).toBe(true);
    });
  });
});
