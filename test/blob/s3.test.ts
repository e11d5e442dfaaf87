import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore, S3_READ_CHUNK_BYTES } from '../../shared/blob/s3.js';
import { ServiceError } from '../../shared/errors.js';
import { sha224Hex } from '../helpers/digests.js';
import { pickUnusedPort } from '../helpers/ports.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const BUCKET = 'test';
let server: S3rver;
let directory: string;
let endpoint: string;
let store: S3BlobStore;

function storeFor(url: string, bucket = BUCKET): S3BlobStore {
  return new S3BlobStore({ endpoint: url, bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
}

/** Yields `data` in 64 KiB pieces, as a network body would arrive. */
function streamOf(data: Buffer, piece = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let offset = 0; offset < data.length; offset += piece) yield data.subarray(offset, offset + piece);
    })(),
  );
}

async function readAll(stream: Readable): Promise<{ bytes: Buffer; chunkSizes: number[] }> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), chunkSizes: chunks.map((chunk) => chunk.length) };
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  store = storeFor(endpoint);
});

afterAll(async () => {
  await store.close();
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

describe('S3BlobStore against s3rver', () => {
  it('round-trips a 20 MB random object byte for byte (multipart upload), read in ≥ 1 MiB chunks', async () => {
    const data = randomBytes(20 * 1000 * 1000);
    const ref = await store.put('uploads/acct/big', streamOf(data), { maxBytes: 50 * 1024 * 1024 });
    expect(ref).toEqual({ key: 'uploads/acct/big', size: data.length });

    const { bytes, chunkSizes } = await readAll(await store.get('uploads/acct/big'));
    expect(bytes.length).toBe(data.length);
    expect(sha224Hex(bytes)).toBe(sha224Hex(data));
    expect(chunkSizes.slice(0, -1).every((size) => size >= S3_READ_CHUNK_BYTES)).toBe(true);
    await store.delete('uploads/acct/big');
  });

  it('round-trips a small object (single PUT) and an empty one', async () => {
    await store.put('uploads/acct/small', streamOf(Buffer.from('abc')), { maxBytes: 10 });
    expect((await readAll(await store.get('uploads/acct/small'))).bytes.toString()).toBe('abc');
    const empty = await store.put('uploads/acct/empty', Readable.from([]), { maxBytes: 10 });
    expect(empty.size).toBe(0);
    expect((await readAll(await store.get('uploads/acct/empty'))).bytes.length).toBe(0);
  });

  it('refuses an oversized body with FILE_TOO_LARGE and leaves no object (single part and multipart)', async () => {
    for (const [key, size, max] of [
      ['uploads/acct/too-big-small', 2000, 1000],
      ['uploads/acct/too-big-multi', 12 * 1024 * 1024, 11 * 1024 * 1024],
    ] as const) {
      const error = await store.put(key, streamOf(randomBytes(size)), { maxBytes: max }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).code).toBe('FILE_TOO_LARGE');
      expect((error as ServiceError).message).toBe('File exceeds the maximum size');
      const missing = await store.get(key).catch((err: unknown) => err);
      expect((missing as ServiceError).code).toBe('NOT_FOUND');
    }
  });

  it('get of an absent key is NOT_FOUND; delete is idempotent', async () => {
    await expect(store.get('uploads/acct/none')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await store.put('uploads/acct/del', streamOf(Buffer.from('x')), { maxBytes: 10 });
    await store.delete('uploads/acct/del');
    await store.delete('uploads/acct/del');
    await store.delete('uploads/acct/never-existed');
    await expect(store.get('uploads/acct/del')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('rejects unsafe keys', async () => {
    await expect(store.get('../etc/passwd')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(store.delete('a/../b')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('ping succeeds; ensureBucket creates a missing bucket once', async () => {
    await store.ping();
    const other = storeFor(endpoint, 'created-by-test');
    await expect(other.ping()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await other.ensureBucket();
    await other.ensureBucket();
    await other.ping();
    await other.close();
  });

  it('an unreachable endpoint answers SERVICE_UNAVAILABLE within ~3 s, with no partial result', async () => {
    const down = storeFor(`http://127.0.0.1:${await pickUnusedPort()}`);
    for (const attempt of [
      () => down.ping(),
      () => down.get('uploads/acct/x'),
      () => down.delete('uploads/acct/x'),
      () => down.put('uploads/acct/x', streamOf(randomBytes(1000)), { maxBytes: 10_000 }),
    ]) {
      const started = Date.now();
      const error = await attempt().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(Date.now() - started).toBeLessThan(3000);
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).code).toBe('SERVICE_UNAVAILABLE');
    }
    await down.close();
  });
});
