/**
 * Distributed mode's blob store: S3 or MinIO. Uploads stream through ByteLimit into a
 * multipart upload (lib-storage), so an oversized body is refused mid-stream and leaves nothing;
 * reads stream the object back in ≥ 1 MiB chunks for the hashing workers.
 *
 * Checksums are computed only when an operation requires them: with the SDK's default mode a
 * streamed PutObject goes out aws-chunked, which s3rver stores verbatim (docs/stack.md "s3rver and checksums"), and
 * MinIO/S3 verify Content-MD5/SigV4 either way.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { isServiceError, ServiceError } from '../errors.js';
import type { BlobRef } from '../jobs/contracts.js';
import { ByteLimit } from './byte-limit.js';
import { abortIdleUploads, listObjectPages } from './s3-listing.js';
import type { BlobStore, PutOptions, StoredBlob } from './types.js';

/** Reads of ≥ 1 MiB keep the per-chunk overhead of hashing negligible. */
export const S3_READ_CHUNK_BYTES = 1024 * 1024;
/** S3's minimum part size; memory per upload is at most PART_BYTES × UPLOAD_QUEUE_SIZE. */
const PART_BYTES = 5 * 1024 * 1024;
const UPLOAD_QUEUE_SIZE = 2;
const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._/-]{0,1023}$/;

export interface S3BlobStoreOptions {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (`endpoint/bucket/key`); MinIO and s3rver need it. Default true. */
  forcePathStyle?: boolean;
  /** TCP connect bound; an unreachable store answers SERVICE_UNAVAILABLE after about this long (default 1000 ms). */
  connectTimeoutMs?: number;
  /** Idle-socket bound for transfers (default 30 s). */
  socketTimeoutMs?: number;
  /** SDK attempts per request (default 2). */
  maxAttempts?: number;
}

export class S3BlobStore implements BlobStore {
  readonly bucket: string;
  private readonly client: S3Client;

  constructor(options: S3BlobStoreOptions) {
    const { endpoint, bucket, region, accessKeyId, secretAccessKey } = options;
    const { forcePathStyle = true, connectTimeoutMs = 1000, socketTimeoutMs = 30_000, maxAttempts = 2 } = options;
    if (typeof endpoint !== 'string' || !/^https?:\/\/[^/]+/.test(endpoint)) throw new TypeError('endpoint must be an http(s) URL');
    if (typeof bucket !== 'string' || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
      throw new TypeError('bucket must be a valid S3 bucket name');
    if (typeof region !== 'string' || region.length === 0) throw new TypeError('region must be a non-empty string');
    if (!Number.isInteger(connectTimeoutMs) || connectTimeoutMs < 1) throw new RangeError('connectTimeoutMs must be a positive integer');
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts must be a positive integer');
    this.bucket = bucket;
    this.client = new S3Client({
      endpoint,
      region,
      credentials: { accessKeyId, secretAccessKey },
      forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts,
      requestHandler: { connectionTimeout: connectTimeoutMs, socketTimeout: socketTimeoutMs },
    });
  }

  async put(key: string, source: Readable, options: PutOptions): Promise<BlobRef> {
    checkKey(key);
    const limit = new ByteLimit(options.maxBytes);
    // pipeline destroys both streams on any error, so the upload's reader sees it at once.
    const body = pipeline(source, limit, () => undefined);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: PART_BYTES,
      queueSize: UPLOAD_QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      // Abort the multipart upload (lib-storage does too; stores differ) and make sure no object is left.
      await upload.abort().catch(() => undefined);
      await this.deleteQuietly(key);
      // lib-storage may report its own abort's failure rather than the cause: the body's error wins.
      throw mapS3Error(limit.errored ?? source.errored ?? err);
    }
    return { key, size: limit.bytes };
  }

  async get(key: string): Promise<Readable> {
    checkKey(key);
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = response.Body as Readable | undefined;
      if (body === undefined) throw new ServiceError('NOT_FOUND', { details: 'blob not found' });
      const rechunked = new Rechunk(S3_READ_CHUNK_BYTES);
      return pipeline(body, rechunked, () => undefined);
    } catch (err) {
      throw mapS3Error(err);
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    try {
      // DeleteObject succeeds for an absent key on S3, MinIO and s3rver alike.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (isNotFound(err)) return;
      throw mapS3Error(err);
    }
  }

  async *list(prefix: string): AsyncGenerator<StoredBlob[]> {
    try {
      yield* listObjectPages(this.client, this.bucket, prefix, isSafeKey);
    } catch (err) {
      throw mapS3Error(err);
    }
  }

  async abortStaleUploads(prefix: string, idleSince: number): Promise<number> {
    try {
      return await abortIdleUploads(this.client, this.bucket, prefix, idleSince);
    } catch (err) {
      throw mapS3Error(err);
    }
  }

  async ping(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      throw mapS3Error(err, 'SERVICE_UNAVAILABLE');
    }
  }

  /** Creates the bucket if it is missing (development and tests; production buckets are provisioned). */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (err) {
      if (!isNotFound(err)) throw mapS3Error(err);
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const name = (err as { name?: unknown }).name;
      if (name === 'BucketAlreadyOwnedByYou' || name === 'BucketAlreadyExists') return;
      throw mapS3Error(err);
    }
  }

  close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }

  private async deleteQuietly(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch {
      // Unreachable store: nothing was completed there either.
    }
  }
}

/** Coalesces small network chunks into chunks of at least `size` bytes (the last may be shorter). */
export class Rechunk extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly size: number) {
    super({ readableHighWaterMark: size });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= this.size) this.flushPending();
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pendingBytes > 0) this.flushPending();
    done();
  }

  private flushPending(): void {
    const chunk = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.push(chunk);
  }
}

function isSafeKey(key: string): boolean {
  return typeof key === 'string' && SAFE_KEY.test(key) && !key.split('/').includes('..');
}

function checkKey(key: string): void {
  if (!isSafeKey(key)) throw new ServiceError('INVALID_INPUT', { details: 'bad blob key' });
}

function isNotFound(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  const status = (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return name === 'NoSuchKey' || name === 'NotFound' || name === 'NoSuchBucket' || status === 404;
}

/**
 * ServiceErrors pass through (FILE_TOO_LARGE from ByteLimit); a missing object is NOT_FOUND; a store
 * that cannot be reached or answers 5xx is SERVICE_UNAVAILABLE (retried by the queue); anything
 * else (credentials, bucket policy) is a configuration fault and stays an internal error.
 */
function mapS3Error(err: unknown, otherwise?: 'SERVICE_UNAVAILABLE'): unknown {
  if (isServiceError(err)) return err;
  if (isNotFound(err) && otherwise === undefined) return new ServiceError('NOT_FOUND', { details: 'blob not found', cause: err });
  const status = err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
  if (status === undefined || status >= 500 || otherwise !== undefined) {
    return new ServiceError('SERVICE_UNAVAILABLE', { details: 'the object store is unavailable', cause: err });
  }
  return err;
}
