/** Every /v1 method of the SDK (Set A and Set B) against a live service, compared with node:crypto. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError, Sha224dClient } from '../../../api/clients/typescript/src/node.js';
import { hmacSha224, startContentServer, tempFile, type Target } from './helpers.js';
import { sha224Base64, sha224Hex } from '../../helpers/digests.js';

export function describeV1(name: string, target: () => Target): void {
  describe(`${name}: /v1 through the SDK`, () => {
    let client: Sha224dClient;
    let file: ReturnType<typeof tempFile>;

    beforeAll(() => {
      client = new Sha224dClient({ apiKey: target().key, baseUrl: target().url });
      file = tempFile(70_000, 'v1.bin');
    });
    afterAll(() => file.remove());

    it('Set A: hash, verify, hmac', async () => {
      expect(await client.v1.hash({ data: 'abc' })).toMatchObject({ success: true, hash: sha224Hex('abc'), algorithm: 'sha224' });
      expect((await client.v1.hash({ data: 'YWJj', encoding: 'base64', outputFormat: 'base64' })).hash).toBe(sha224Base64('abc'));
      expect(await client.v1.verify({ data: 'abc', hash: sha224Hex('abc') })).toMatchObject({ success: true, verified: true });
      expect((await client.v1.verify({ data: 'abd', hash: sha224Hex('abc') })).verified).toBe(false);
      const hmac = await client.v1.hmac({ data: 'message', key: 'key', keyEncoding: 'utf8', outputFormat: 'hex' });
      expect(hmac.hmac).toBe(hmacSha224('key', 'message'));
    });

    it('Set A: file hash (multipart) and usage', async () => {
      const answer = await client.v1.fileHash(file.file, { outputFormat: 'base64' });
      expect(answer).toMatchObject({ hash: sha224Base64(file.bytes), fileName: 'v1.bin', fileSize: file.bytes.length });
      const usage = await client.v1.usage();
      expect(usage.account.quota.used).toBeGreaterThan(0);
      expect(usage.account.tier).toBe('Enterprise');
    });

    it('Set B: text, file, verify text and file', async () => {
      expect(await client.v1.hashText({ text: 'hello world' })).toMatchObject({ hash: sha224Hex('hello world'), input_length: 11 });
      expect(await client.v1.hashFile(file.file, { chunk_size: 4096 })).toMatchObject({
        hash: sha224Hex(file.bytes),
        filename: 'v1.bin',
        filesize: file.bytes.length,
      });
      expect(await client.v1.verifyText({ text: 'abc', hash: sha224Hex('abc') })).toMatchObject({
        valid: true,
        computed: sha224Hex('abc'),
      });
      const mismatch = await client.v1.verifyFile(new Blob([new Uint8Array(file.bytes)]), { hash: sha224Hex('other') });
      expect(mismatch).toMatchObject({ valid: false, computed: sha224Hex(file.bytes), expected: sha224Hex('other') });
    });

    it('Set B: URL hash', async () => {
      const body = Buffer.from('served over loopback for the URL hash');
      const content = await startContentServer(body);
      try {
        expect(await client.v1.hashUrl({ url: content.url, timeout: 5 })).toMatchObject({
          hash: sha224Hex(body),
          url: content.url,
          content_length: body.length,
        });
      } finally {
        await content.close();
      }
    });

    it('Set B: batch hash, batch verify, compare, status', async () => {
      const hashes = await client.v1.batchHash({ items: [{ id: 'a', text: 'abc' }, { text: 'hello' }] });
      expect(hashes.results).toEqual([
        { id: 'a', hash: sha224Hex('abc'), input_length: 3 },
        { id: '1', hash: sha224Hex('hello'), input_length: 5 },
      ]);
      const verified = await client.v1.batchVerify({
        items: [
          { id: 'a', text: 'abc', hash: sha224Hex('abc') },
          { text: 'x', hash: sha224Hex('y') },
        ],
      });
      expect(verified.results.map((r) => r.valid)).toEqual([true, false]);
      expect((await client.v1.compare({ hash1: sha224Hex('abc'), hash2: sha224Hex('abc').toUpperCase() })).match).toBe(true);
      const status = await client.v1.status();
      expect(status).toMatchObject({ status: 'operational', account: { plan: 'enterprise' } });
    });

    it('v1 errors carry their details object', async () => {
      const err = await client.v1.hash({} as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidRequestError);
      expect(err).toMatchObject({ code: 'INVALID_INPUT', status: 400, details: { info: 'field: data' } });
    });
  });
}
