/** v1 Set B behaviour (docs/api.md "v1 Set B"): text/file hashing, verification, batch, compare, status. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson } from '../helpers/api-server.js';
import { ONE_NODE_CLUSTER, startTarget, TARGETS, type Target } from '../helpers/targets.js';
import { SHA224_ABC as ABC, sha224Hex } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';
import { waitFor } from '../helpers/wait.js';

const invalid = (message: string, field: string) => ({ error: { code: 'INVALID_INPUT', message, details: { info: `field: ${field}` } } });

const form = (bytes: Buffer | string, fields: Record<string, string> = {}): FormData => fileForm(bytes, { fields, filename: 'data.bin' });

describe.each(TARGETS)('/v1 Set B on %s', (target) => {
  let s: Target;
  let h: Record<string, string>;
  beforeAll(async () => {
    s = await startTarget(target, {}, ONE_NODE_CLUSTER);
    h = { authorization: `Bearer ${s.keys.production}` };
  });
  afterAll(() => s.close());

  const postForm = async (p: string, body: FormData) => {
    const res = await fetch(`${s.url}${p}`, { method: 'POST', headers: h, body });
    return { status: res.status, body: await res.json() };
  };

  const blobFiles = (): string[] => s.storedBlobs();

  describe('POST /v1/hash/text', () => {
    it.each([
      ['utf8', 'héllo ☃', Buffer.from('héllo ☃')],
      ['hex', 'DEADBEEF', Buffer.from('deadbeef', 'hex')],
      ['base64', 'AP8Qqw==', Buffer.from('AP8Qqw==', 'base64')],
    ])('hashes %s text; input_length is the byte count; hash is lowercase hex', async (encoding, text, bytes) => {
      const r = await postJson(`${s.url}/v1/hash/text`, { text, encoding }, h);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ hash: sha224Hex(bytes), input_length: bytes.length });
      expect(r.body.hash).toMatch(/^[0-9a-f]{56}$/);
    });

    it.each([
      [{}, 'The text parameter is required', 'text'],
      [{ data: 'abc' }, 'The text parameter is required', 'text'],
      [{ text: 'abc', encoding: 'hex' }, 'text is not valid hex (even number of 0-9a-f characters)', 'text'],
      [{ text: 'x', encoding: 'utf16' }, 'encoding must be one of utf8, hex, base64', 'encoding'],
    ])('refuses %j', async (body, message, field) => {
      const r = await postJson(`${s.url}/v1/hash/text`, body, h);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(invalid(message, field));
    });
  });

  describe('POST /v1/hash/file', () => {
    it('hashes with any chunk_size to the same digest', async () => {
      const bytes = randomBytes(200_000);
      for (const chunk_size of [undefined, '1024', String(64 * 1024)]) {
        const r = await postForm('/v1/hash/file', form(bytes, chunk_size ? { chunk_size } : {}));
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ hash: sha224Hex(bytes), filename: 'data.bin', filesize: bytes.length });
      }
    });

    it('refuses a bad chunk_size with 400 and keeps no upload', async () => {
      for (const [chunk_size, message] of [
        ['big', 'chunk_size must be an integer number of bytes'],
        ['10', 'chunk_size must be at least 1024 bytes'],
      ]) {
        const r = await postForm('/v1/hash/file', form('x', { chunk_size: chunk_size! }));
        expect(r.status).toBe(400);
        expect(r.body).toEqual(invalid(message!, 'chunk_size'));
      }
      await waitFor(() => blobFiles().length === 0, { what: 'the refused upload to be deleted' });
      expect(blobFiles()).toEqual([]);
    });
  });

  describe('verification', () => {
    it('POST /v1/verify/text: valid, invalid, expected echoed as sent', async () => {
      const ok = await postJson(`${s.url}/v1/verify/text`, { text: 'abc', hash: ABC.toUpperCase() }, h);
      expect(ok.body).toMatchObject({ valid: true, expected: ABC.toUpperCase(), computed: ABC });
      const bad = await postJson(`${s.url}/v1/verify/text`, { text: 'abd', hash: ABC }, h);
      expect(bad.body).toMatchObject({ valid: false, expected: ABC, computed: sha224Hex('abd') });
      const hex = await postJson(`${s.url}/v1/verify/text`, { text: '616263', encoding: 'hex', hash: ABC }, h);
      expect(hex.body.valid).toBe(true);
    });

    it('POST /v1/verify/text refuses a hash that is not a SHA-224 hex digest', async () => {
      const r = await postJson(`${s.url}/v1/verify/text`, { text: 'abc', hash: 'abc' }, h);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(invalid('hash must be a 56-character hexadecimal SHA-224 digest', 'hash'));
    });

    it('POST /v1/verify/file: valid and invalid; the hash field may follow the file', async () => {
      const bytes = randomBytes(10_000);
      const f = new FormData();
      f.append('file', new Blob([new Uint8Array(bytes)]), 'x.dat');
      f.append('hash', sha224Hex(bytes));
      const ok = await postForm('/v1/verify/file', f);
      expect(ok.body).toMatchObject({ valid: true, computed: sha224Hex(bytes), filename: 'x.dat' });
      const bad = await postForm('/v1/verify/file', form(bytes, { hash: ABC }));
      expect(bad.body).toMatchObject({ valid: false, expected: ABC, computed: sha224Hex(bytes) });
    });

    it('POST /v1/verify/file refuses a missing hash and keeps no upload', async () => {
      const r = await postForm('/v1/verify/file', form('abc'));
      expect(r.status).toBe(400);
      expect(r.body).toEqual(invalid('The hash parameter is required', 'hash'));
      await waitFor(() => blobFiles().length === 0, { what: 'the refused upload to be deleted' });
      expect(blobFiles()).toEqual([]);
    });
  });

  describe('batch', () => {
    it('POST /v1/batch/hash keeps order, defaults ids to the index, honours encoding', async () => {
      const r = await postJson(`${s.url}/v1/batch/hash`, { items: [{ text: '616263' }, { id: 'x', text: '' }], encoding: 'hex' }, h);
      expect(r.body).toMatchObject({
        results: [
          { id: '0', hash: ABC, input_length: 3 },
          { id: 'x', hash: sha224Hex(''), input_length: 0 },
        ],
        count: 2,
      });
    });

    it('takes 1000 items and refuses 1001 or none', async () => {
      const items = Array.from({ length: 1000 }, (_, i) => ({ text: `item ${i}` }));
      const ok = await postJson(`${s.url}/v1/batch/hash`, { items }, h);
      expect(ok.body.count).toBe(1000);
      expect(ok.body.results[999]).toEqual({ id: '999', hash: sha224Hex('item 999'), input_length: 8 });
      const over = await postJson(`${s.url}/v1/batch/hash`, { items: [...items, { text: 'one more' }] }, h);
      expect(over.body).toEqual(invalid('items may hold at most 1000 entries', 'items'));
      expect((await postJson(`${s.url}/v1/batch/hash`, { items: [] }, h)).body).toEqual(
        invalid('items must hold at least one entry', 'items'),
      );
      expect((await postJson(`${s.url}/v1/batch/hash`, {}, h)).body).toEqual(invalid('The items parameter is required', 'items'));
    });

    it('names the failing item', async () => {
      const r = await postJson(`${s.url}/v1/batch/hash`, { items: [{ text: 'ab' }, { text: 'xyz' }], encoding: 'hex' }, h);
      expect(r.body).toEqual(invalid('items[1].text is not valid hex (even number of 0-9a-f characters)', 'items[1].text'));
      const v = await postJson(`${s.url}/v1/batch/verify`, { items: [{ text: 'a', hash: 'nothex' }] }, h);
      expect(v.body).toEqual(invalid('hash must be a 56-character hexadecimal SHA-224 digest', 'items[0].hash'));
    });

    it('POST /v1/batch/verify reports each item', async () => {
      const r = await postJson(
        `${s.url}/v1/batch/verify`,
        {
          items: [
            { id: 'good', text: 'abc', hash: ABC.toUpperCase() },
            { text: 'abd', hash: ABC },
          ],
        },
        h,
      );
      expect(r.body).toMatchObject({
        results: [
          { id: 'good', valid: true, expected: ABC.toUpperCase(), computed: ABC },
          { id: '1', valid: false, expected: ABC, computed: sha224Hex('abd') },
        ],
        count: 2,
      });
    });
  });

  describe('POST /v1/compare', () => {
    it.each([
      [ABC, ABC.toUpperCase(), true],
      [ABC, sha224Hex('abd'), false],
      [ABC, ABC.slice(0, 54), false],
      ['ab', 'AB', true],
    ])('%s vs %s → %s', async (hash1, hash2, match) => {
      const r = await postJson(`${s.url}/v1/compare`, { hash1, hash2 }, h);
      expect(r.status).toBe(200);
      expect(r.body.match).toBe(match);
    });

    it.each([
      [{ hash2: ABC }, 'The hash1 parameter is required', 'hash1'],
      [{ hash1: ABC, hash2: 'xyz' }, 'hash2 must be a hexadecimal string of 1 to 128 characters', 'hash2'],
      [{ hash1: '', hash2: ABC }, 'hash1 must be a hexadecimal string of 1 to 128 characters', 'hash1'],
      [{ hash1: 'a'.repeat(129), hash2: ABC }, 'hash1 must be a hexadecimal string of 1 to 128 characters', 'hash1'],
    ])('refuses %j', async (body, message, field) => {
      const r = await postJson(`${s.url}/v1/compare`, body, h);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(invalid(message, field));
    });
  });

  describe('GET /v1/status', () => {
    it('reports the Set B minute window, live, and the day count', async () => {
      const secret = await s.newKey({ plan: 'pro' });
      const k = { authorization: `Bearer ${secret}` };
      const first = await getJson(`${s.url}/v1/status`, k);
      await postJson(`${s.url}/v1/hash/text`, { text: 'a' }, k);
      await postJson(`${s.url}/v1/hash`, { data: 'a' }, k); // Set A: another rate bucket, same day
      const second = await getJson(`${s.url}/v1/status`, k);
      expect(first.body).toMatchObject({ status: 'operational', version: '1.0', account: { plan: 'pro', requests_quota: 100000 } });
      expect(first.body.rate_limit.limit).toBe(300);
      // The two hashes; reading status is outside the daily quota (docs/limits.md "Headers and errors").
      expect(second.body.account.requests_today).toBe(first.body.account.requests_today + 2);
      // Same minute (almost always): two more Set B requests used (this status read and the text hash); a new minute resets it.
      if (second.body.rate_limit.reset === first.body.rate_limit.reset)
        expect(second.body.rate_limit.remaining).toBe(first.body.rate_limit.remaining - 2);
    });

    it('reports -1 for an unlimited daily quota, and is open to read-only keys', async () => {
      const r = await getJson(`${s.url}/v1/status`, { authorization: `Bearer ${s.keys.read_only}` });
      expect(r.status).toBe(200);
      expect(r.body.account).toMatchObject({ plan: 'enterprise', requests_quota: -1 });
      expect(r.body.rate_limit.limit).toBe(1000);
    });
  });
});
