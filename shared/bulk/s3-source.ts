/**
 * A caller's bucket as the source of a bulk job (docs/api.md "Bulk jobs"): listed by the API node
 * at submission, each object read and hashed by a worker, read-only (ListObjects, GetObject).
 * A caller-named endpoint is dialled only at addresses the URL policy allows (docs/ssrf.md), the
 * same as URL jobs.
 */
import http from 'node:http';
import https from 'node:https';
import { GetObjectCommand, ListObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { ServiceError } from '../errors.js';
import { guardLookup } from '../net/guarded-connect.js';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface S3SourceConfig {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials: S3Credentials;
}

export function sourceClient(source: S3SourceConfig, allowLoopback: boolean): S3Client {
  const lookup = guardLookup({ allowLoopback });
  return new S3Client({
    region: source.region,
    ...(source.endpoint === undefined ? {} : { endpoint: source.endpoint }),
    forcePathStyle: source.forcePathStyle,
    credentials: source.credentials,
    maxAttempts: 2,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      httpAgent: new http.Agent({ keepAlive: true, lookup }),
      httpsAgent: new https.Agent({ keepAlive: true, lookup }),
      connectionTimeout: 5000,
      socketTimeout: 30_000,
    },
  });
}

/**
 * The objects under `prefix`, a page (≤ 1000) at a time: key and size. ListObjects (version 1)
 * with `Marker` = the last key seen: the same listing on S3, and the one s3rver can page, whose
 * version-2 continuation tokens are DES-encrypted, which OpenSSL 3 refuses (InternalError on every
 * truncated page).
 */
export async function* listSource(client: S3Client, bucket: string, prefix: string): AsyncGenerator<Array<{ key: string; size: number }>> {
  let after: string | undefined;
  for (;;) {
    const page = await client
      .send(new ListObjectsCommand({ Bucket: bucket, Prefix: prefix, MaxKeys: 1000, ...(after === undefined ? {} : { Marker: after }) }))
      .catch((err: unknown) => {
        throw sourceError(err);
      });
    const objects = (page.Contents ?? []).flatMap((o) => (o.Key === undefined ? [] : [{ key: o.Key, size: o.Size ?? 0 }]));
    yield objects;
    if (page.IsTruncated !== true || objects.length === 0) return;
    after = objects[objects.length - 1]!.key;
  }
}

export async function readSourceObject(client: S3Client, bucket: string, key: string, signal?: AbortSignal): Promise<Readable> {
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
    return answer.Body as Readable;
  } catch (err) {
    throw sourceError(err);
  }
}

/** The store's refusal in the service's terms: a missing object or bucket, a refused credential, anything else. */
export function sourceError(err: unknown): ServiceError {
  const name = (err as { name?: unknown } | undefined)?.name;
  if (name === 'NoSuchKey' || name === 'NotFound') return new ServiceError('NOT_FOUND', { details: 'no such object' });
  if (name === 'NoSuchBucket') return new ServiceError('NOT_FOUND', { details: 'no such bucket' });
  if (name === 'AccessDenied' || name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch')
    return new ServiceError('FORBIDDEN', { details: 'the bucket refused the credentials' });
  if (err instanceof ServiceError) return err;
  return new ServiceError('URL_FETCH_FAILED', { details: 'the bucket could not be read', cause: err });
}
