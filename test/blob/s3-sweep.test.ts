/**
 * The blob sweep against S3 (s3rver, fronted by ./s3rver-uploads.ts for the multipart listing
 * calls s3rver lacks): ListObjectsV2 paging, deletion by age and reference, and the abort of
 * multipart uploads a dead node left behind. Ages come from an injected clock or from the
 * uploads' file times, never from waiting.
 *
 * s3rver runs as its own process (test/helpers/fixtures/s3rver.mjs) with OpenSSL's legacy
 * provider: it encrypts ListObjectsV2 continuation tokens with DES, which OpenSSL 3 refuses
 * otherwise, so any listing of more than 1000 objects would fail with a 500.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../shared/blob/s3.js';
import { sweepBlobs, type BlobSweepReport } from '../../shared/blob/sweep.js';
import type { StoredBlob } from '../../shared/blob/types.js';
import { createLogger } from '../../shared/log.js';
import { ROOT, spawnNode, type SpawnedProcess } from '../helpers/spawn.js';
import { startUploadsFront, type UploadsFront } from './s3rver-uploads.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const BUCKET = 'sweep';
const HOUR = 3_600_000;
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const logger = createLogger('silent');

let directory: string;
let s3rver: SpawnedProcess;
let front: UploadsFront;
let store: S3BlobStore;
let client: S3Client;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 's3rver-sweep-'));
  const fixture = path.join(ROOT, 'test', 'helpers', 'fixtures', 's3rver.mjs');
  s3rver = spawnNode('s3rver', ['--openssl-legacy-provider', fixture, directory, BUCKET]);
  const [, port] = await s3rver.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
  front = await startUploadsFront(Number(port), directory, BUCKET);
  store = new S3BlobStore({ endpoint: front.endpoint, bucket: BUCKET, region: 'us-east-1', ...CREDENTIALS });
  client = new S3Client({
    endpoint: front.endpoint,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
});

afterAll(async () => {
  client?.destroy();
  await store?.close();
  await front?.close();
  await s3rver?.stop();
  await rm(directory, { recursive: true, force: true });
});

const put = (key: string, body = 'bytes'): Promise<unknown> => store.put(key, Readable.from([Buffer.from(body)]), { maxBytes: 1024 });

function sweep(live: string[], options: { now?: number; retentionMs?: number } = {}): Promise<BlobSweepReport> {
  const { now, retentionMs = 0 } = options;
  return sweepBlobs({
    blobs: store,
    liveBlobKeys: () => Promise.resolve(new Set(live)),
    retentionMs,
    graceMs: HOUR,
    logger,
    ...(now === undefined ? {} : { now: () => now }),
  });
}

async function pagesOf(prefix: string): Promise<StoredBlob[][]> {
  const pages: StoredBlob[][] = [];
  for await (const page of store.list(prefix)) pages.push(page);
  return pages;
}

async function startUpload(key: string, parts: number): Promise<string> {
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
  for (let n = 1; n <= parts; n++) {
    await client.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: n, Body: Buffer.from(`part ${n}`) }));
  }
  return UploadId!;
}

describe('blob sweep on S3', () => {
  it('lists in pages of at most 1000 through the continuation token, and deletes a full listing', { timeout: 180_000 }, async () => {
    const keys = Array.from({ length: 1003 }, (_, i) => `uploads/paging/${String(i).padStart(4, '0')}`);
    const before = Date.now();
    for (let i = 0; i < keys.length; i += 16) await Promise.all(keys.slice(i, i + 16).map((key) => put(key)));
    const after = Date.now();
    await put('elsewhere/kept');

    const pages = await pagesOf('uploads/paging/');
    expect(pages.map((page) => page.length)).toEqual([1000, 3]);
    expect(pages.flat().map((blob) => blob.key)).toEqual(keys);
    // Last-Modified has whole seconds.
    for (const blob of pages.flat()) expect(blob.lastModified).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    for (const blob of pages.flat()) expect(blob.lastModified).toBeLessThanOrEqual(after);

    const report = await sweep([], { now: Date.now() + HOUR + 60_000 });
    expect(report).toEqual({ listed: 1003, referenced: 0, deleted: 1003, abortedUploads: 0 });
    expect(await pagesOf('uploads/')).toEqual([]);
    expect((await pagesOf('elsewhere/')).flat().map((blob) => blob.key)).toEqual(['elsewhere/kept']);
  });

  it('deletes an old unreferenced upload; keeps a referenced one, a young one, and one within its retention', async () => {
    await put('uploads/acct/orphan', 'orphan');
    await put('uploads/acct/referenced', 'referenced');
    const live = ['uploads/acct/referenced'];

    expect(await sweep(live)).toEqual({ listed: 2, referenced: 0, deleted: 0, abortedUploads: 0 });
    // Older than the grace but not than retention + grace.
    expect(await sweep(live, { now: Date.now() + HOUR + 60_000, retentionMs: 2 * HOUR })).toEqual({
      listed: 2,
      referenced: 0,
      deleted: 0,
      abortedUploads: 0,
    });
    expect(await sweep(live, { now: Date.now() + HOUR + 60_000 })).toEqual({ listed: 2, referenced: 1, deleted: 1, abortedUploads: 0 });
    await expect(store.get('uploads/acct/orphan')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const chunks: Buffer[] = [];
    for await (const chunk of await store.get('uploads/acct/referenced')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('referenced');

    // Idempotent: a second sweep finds nothing more to do.
    expect(await sweep(live, { now: Date.now() + HOUR + 60_000 })).toEqual({ listed: 1, referenced: 1, deleted: 0, abortedUploads: 0 });
    await store.delete('uploads/acct/referenced');
  });

  it('aborts multipart uploads idle for longer than the grace; one with a recent part, or a young one, stays', async () => {
    const stale = await startUpload('uploads/acct/stale', 2);
    const empty = await startUpload('uploads/acct/empty', 0);
    const slow = await startUpload('uploads/acct/slow', 1);
    const young = await startUpload('uploads/acct/young', 1);
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    await front.age(stale, twoHoursAgo, true);
    await front.age(empty, twoHoursAgo, false);
    // Started two hours ago but still sending: its last part is fresh.
    await front.age(slow, twoHoursAgo, false);

    expect(await sweep([])).toEqual({ listed: 0, referenced: 0, deleted: 0, abortedUploads: 2 });
    expect((await front.uploadIds()).sort()).toEqual([slow, young].sort());
    const listed = await client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: 'uploads/' }));
    expect((listed.Uploads ?? []).map((u) => u.Key).sort()).toEqual(['uploads/acct/slow', 'uploads/acct/young']);

    // Two hours on, nothing has moved: both are abandoned.
    expect(await sweep([], { now: Date.now() + 2 * HOUR })).toEqual({ listed: 0, referenced: 0, deleted: 0, abortedUploads: 2 });
    expect(await front.uploadIds()).toEqual([]);
  });

  it('an unreachable store fails the sweep with SERVICE_UNAVAILABLE, having deleted nothing', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const down = new S3BlobStore({ endpoint: `http://127.0.0.1:${port}`, bucket: BUCKET, region: 'us-east-1', ...CREDENTIALS });
    let asked = false;
    const failure = await sweepBlobs({
      blobs: down,
      liveBlobKeys: () => {
        asked = true;
        return Promise.resolve(new Set<string>());
      },
      retentionMs: 0,
      graceMs: HOUR,
      logger,
    }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable' });
    expect(asked).toBe(false);
    await down.close();
  });
});
