/**
 * Every /v2 method of the SDK, and its jobs and WebSocket session, against a live service; each
 * result is compared with node:crypto. Run against the embedded server and a distributed node.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, InvalidRequestError, Sha224dClient, type UploadProgress } from '../../../api/clients/typescript/src/node.js';
import { hmacSha224, tempFile, type Target } from './helpers.js';
import { sha224Base64, sha224Hex } from '../../helpers/digests.js';

export function describeV2(name: string, target: () => Target): void {
  describe(`${name}: /v2 through the SDK`, () => {
    let client: Sha224dClient;
    let file: ReturnType<typeof tempFile>;

    beforeAll(() => {
      client = new Sha224dClient({ apiKey: target().key, baseUrl: target().url });
      file = tempFile(300_000, 'report.bin');
    });
    afterAll(() => {
      client.close();
      file.remove();
    });

    it('hash: every input encoding and output format', async () => {
      expect((await client.v2.hash({ data: 'abc' })).hash).toBe(sha224Hex('abc'));
      const bytes = Buffer.from([0, 1, 2, 250, 255]);
      expect((await client.v2.hash({ data: bytes.toString('hex'), encoding: 'hex' })).hash).toBe(sha224Hex(bytes));
      const b64 = await client.v2.hash({ data: bytes.toString('base64'), encoding: 'base64', output: 'base64' });
      expect(b64).toMatchObject({ success: true, hash: sha224Base64(bytes), encoding: 'base64', algorithm: 'SHA-224' });
      expect((await client.v2.hash({ data: 'abc', output: 'binary' })).hash).toBe(sha224Base64('abc'));
    });

    it('verify: a match and a mismatch', async () => {
      const ok = await client.v2.verify({ data: 'abc', hash: sha224Hex('abc').toUpperCase() });
      expect(ok).toMatchObject({ success: true, valid: true, expected_hash: sha224Hex('abc') });
      expect((await client.v2.verify({ data: 'abd', hash: sha224Hex('abc') })).valid).toBe(false);
    });

    it('hmac', async () => {
      const answer = await client.v2.hmac({ data: 'message', key: 'secret' });
      expect(answer).toMatchObject({ hmac: hmacSha224('secret', 'message'), algorithm: 'HMAC-SHA-224' });
      const hexKey = await client.v2.hmac({ data: 'message', key: '0b0b0b0b', key_encoding: 'hex', output: 'base64' });
      expect(hexKey.hmac).toBe(hmacSha224(Buffer.from('0b0b0b0b', 'hex'), 'message', 'base64'));
    });

    it('batch', async () => {
      const items = ['a', 'bb', 'ccc'].map((data, i) => ({ id: `i${i}`, data }));
      const answer = await client.v2.batch({ items });
      expect(answer.results).toEqual(items.map((item) => ({ id: item.id, hash: sha224Hex(item.data) })));
      expect(answer.count).toBe(3);
    });

    it('file from a path, with progress up to the total', async () => {
      const progress: UploadProgress[] = [];
      const answer = await client.v2.file(file.file, { onProgress: (p) => progress.push(p), chunk_size: 65536 });
      expect(answer).toMatchObject({ hash: sha224Hex(file.bytes), filename: 'report.bin', size: file.bytes.length, chunk_size: 65536 });
      expect(progress.at(-1)).toEqual({ sent: file.bytes.length, total: file.bytes.length });
      expect(progress.every((p, i) => i === 0 || p.sent > progress[i - 1]!.sent)).toBe(true);
    });

    it('file from a Blob, bytes and a Node Readable', async () => {
      const blob = new File([new Uint8Array(file.bytes)], 'named.bin');
      expect(await client.v2.file(blob)).toMatchObject({ hash: sha224Hex(file.bytes), filename: 'named.bin' });
      expect((await client.v2.file(new Uint8Array(file.bytes), { filename: 'ü.bin' })).filename).toBe('ü.bin');
      const readable = Readable.from([file.bytes.subarray(0, 1000), file.bytes.subarray(1000)]);
      expect((await client.v2.file(readable)).hash).toBe(sha224Hex(file.bytes));
    });

    it('stream from a web ReadableStream of unknown size, and from a path', async () => {
      const web = Readable.toWeb(Readable.from([file.bytes])) as ReadableStream<Uint8Array>;
      const progress: UploadProgress[] = [];
      const answer = await client.v2.stream(web, { onProgress: (p) => progress.push(p), output: 'base64' });
      expect(answer).toMatchObject({ hash: sha224Base64(file.bytes), size: file.bytes.length, chunk_size: 1048576 });
      expect(progress.at(-1)).toEqual({ sent: file.bytes.length, total: undefined });
      expect((await client.v2.stream(file.file)).hash).toBe(sha224Hex(file.bytes));
    });

    it('upload picks /v2/file by size, /v2/stream past the threshold', async () => {
      expect(await client.upload(file.file)).toHaveProperty('filename', 'report.bin');
      const large = await client.upload(file.file, { fileMaxBytes: 1000 });
      expect(large).not.toHaveProperty('filename');
      expect(large.hash).toBe(sha224Hex(file.bytes));
    });

    it('jobs: submit a batch, wait by polling; get returns the synchronous body', async () => {
      const accepted = await client.jobs.submit('batch', { items: [{ id: 'x', data: 'abc' }] });
      expect(accepted).toMatchObject({ success: true, status: 'queued', status_url: `/v2/jobs/${accepted.job_id}` });
      const done = await client.jobs.wait(accepted.job_id, { via: 'poll', pollIntervalMs: 20 });
      expect(done).toMatchObject({ status: 'completed', job_id: accepted.job_id, results: [{ id: 'x', hash: sha224Hex('abc') }] });
      expect(await client.jobs.get(accepted.job_id)).toMatchObject({ status: 'completed', results: [{ id: 'x' }] });
    });

    it('jobs: submit an upload, wait through socket.io', async () => {
      const accepted = await client.jobs.submit('upload', file.file);
      const done = await client.jobs.wait(accepted.job_id, { via: 'socket' });
      expect(done).toMatchObject({ status: 'completed', hash: sha224Hex(file.bytes), filename: 'report.bin' });
      const stream = await client.jobs.submit('stream', Readable.from([file.bytes]));
      expect(await client.jobs.subscribe(stream.job_id)).toMatchObject({ status: 'completed', hash: sha224Hex(file.bytes) });
    });

    it('v2.submitBatch, v2.submitFile, v2.submitStream and v2.jobs: the names every SDK uses', async () => {
      const batch = await client.v2.submitBatch({ items: [{ id: 'b', data: 'def' }] });
      expect(await client.v2.jobs.wait(batch.job_id, { via: 'poll', pollIntervalMs: 20 })).toMatchObject({
        results: [{ id: 'b', hash: sha224Hex('def') }],
      });
      const fileJob = await client.v2.submitFile(new Blob([new Uint8Array(file.bytes)]));
      expect(await client.v2.jobs.wait(fileJob.job_id)).toMatchObject({ hash: sha224Hex(file.bytes), filename: 'upload' });
      const streamJob = await client.v2.submitStream(file.file);
      expect(await client.v2.jobs.subscribe(streamJob.job_id)).toMatchObject({ status: 'completed', hash: sha224Hex(file.bytes) });
      expect(await client.v2.jobs.get(streamJob.job_id)).toMatchObject({ status: 'completed', size: file.bytes.length });
      expect((await client.v2.upload(file.file)).hash).toBe(sha224Hex(file.bytes));
    });

    it('realtime session: 300 hashes, 16 in flight at most, each answer correlated to its request', async () => {
      const session = client.realtime({ maxInFlight: 16 });
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, session.inFlight)), 0);
      const inputs = Array.from({ length: 300 }, (_, i) => `message ${i} ${'x'.repeat(i % 50)}`);
      const replies = await Promise.all(inputs.map((data, i) => session.hash(data, { output: i % 2 ? 'base64' : 'hex' })));
      clearInterval(sampler);
      session.close();
      replies.forEach((reply, i) => expect(reply.hash).toBe((i % 2 ? sha224Base64 : sha224Hex)(inputs[i]!)));
      expect(peak).toBeGreaterThan(1);
      expect(peak).toBeLessThanOrEqual(16);
      await expect(session.hash('after close')).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
    });

    it('typed errors: code, status, request id, details', async () => {
      const bad = new Sha224dClient({ apiKey: 's224_notakey', baseUrl: target().url, retry: false });
      const denied = await bad.v2.hash({ data: 'abc' }).catch((e: unknown) => e);
      expect(denied).toBeInstanceOf(AuthenticationError);
      expect(denied).toMatchObject({ code: 'UNAUTHORIZED', status: 401, requestId: expect.any(String) });
      const invalid = await client.v2.hash({ data: 'zz', encoding: 'hex' }).catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(InvalidRequestError);
      expect(invalid).toMatchObject({ code: 'INVALID_INPUT', status: 400, details: 'field: data' });
      await expect(client.jobs.get('no-such-job')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    });
  });
}
