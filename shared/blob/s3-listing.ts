/**
 * The S3 calls of the blob sweep (shared/blob/sweep.ts): objects under a prefix, page by page
 * (ListObjectsV2 with its continuation token), and the multipart uploads left behind by a node
 * that died mid-upload (ListMultipartUploads, ListParts, AbortMultipartUpload). Errors are
 * thrown as the SDK raised them; S3BlobStore maps them.
 */
import {
  AbortMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { LIST_PAGE_SIZE, type StoredBlob } from './types.js';

/** One ListObjectsV2 page at a time; keys `isListable` refuses are left out. */
export async function* listObjectPages(
  client: S3Client,
  bucket: string,
  prefix: string,
  isListable: (key: string) => boolean,
): AsyncGenerator<StoredBlob[]> {
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: LIST_PAGE_SIZE, ContinuationToken: token }),
    );
    const blobs: StoredBlob[] = [];
    for (const { Key, LastModified } of page.Contents ?? []) {
      if (Key !== undefined && LastModified !== undefined && isListable(Key))
        blobs.push({ key: Key, lastModified: LastModified.getTime() });
    }
    if (blobs.length > 0) yield blobs;
    token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
}

/**
 * Aborts the multipart uploads under `prefix` started before `idleSince` whose newest part (if
 * any) is older too. An upload's Initiated time alone would abort a slow but live /v2/stream
 * upload (hours at a few hundred KB/s); lib-storage sends a part every 5 MiB, so a live one has
 * a recent part.
 */
export async function abortIdleUploads(client: S3Client, bucket: string, prefix: string, idleSince: number): Promise<number> {
  let aborted = 0;
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  for (;;) {
    const page = await client.send(
      new ListMultipartUploadsCommand({
        Bucket: bucket,
        Prefix: prefix,
        MaxUploads: LIST_PAGE_SIZE,
        KeyMarker: keyMarker,
        UploadIdMarker: uploadIdMarker,
      }),
    );
    for (const { Key, UploadId, Initiated } of page.Uploads ?? []) {
      if (Key === undefined || UploadId === undefined || Initiated === undefined || Initiated.getTime() >= idleSince) continue;
      if ((await newestPartAt(client, bucket, Key, UploadId)) >= idleSince) continue;
      if (await abortUpload(client, bucket, Key, UploadId)) aborted++;
    }
    if (page.IsTruncated !== true || page.NextKeyMarker === undefined) return aborted;
    keyMarker = page.NextKeyMarker;
    uploadIdMarker = page.NextUploadIdMarker;
  }
}

/** Epoch ms of the upload's newest part; -Infinity without parts; +Infinity if the upload is gone (completed or aborted meanwhile). */
async function newestPartAt(client: S3Client, bucket: string, key: string, uploadId: string): Promise<number> {
  let newest = -Infinity;
  let marker: string | undefined;
  try {
    for (;;) {
      const page = await client.send(
        new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MaxParts: LIST_PAGE_SIZE, PartNumberMarker: marker }),
      );
      for (const part of page.Parts ?? []) newest = Math.max(newest, part.LastModified?.getTime() ?? -Infinity);
      if (page.IsTruncated !== true || page.NextPartNumberMarker === undefined) return newest;
      marker = page.NextPartNumberMarker;
    }
  } catch (err) {
    if (isNoSuchUpload(err)) return Infinity;
    throw err;
  }
}

/** True if this call aborted it; false if it was already gone. */
async function abortUpload(client: S3Client, bucket: string, key: string, uploadId: string): Promise<boolean> {
  try {
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
    return true;
  } catch (err) {
    if (isNoSuchUpload(err)) return false;
    throw err;
  }
}

function isNoSuchUpload(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  const status = (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return name === 'NoSuchUpload' || status === 404;
}
