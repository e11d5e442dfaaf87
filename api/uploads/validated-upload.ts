import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Principal } from '../../shared/auth/principal.js';
import type { BlobSink } from '../../shared/blob/types.js';
import { uploadBlobKey } from '../../shared/naming.js';
import type { ApiDeps, UploadEndpoint } from '../deps.js';
import { parseWith } from '../http/validate.js';
import { receiveMultipartFile, type MultipartFile } from './multipart.js';

/**
 * A multipart upload (field `file`, at most the plan's size for `endpoint`) with its other form
 * fields validated by `schema`. Fields that fail validation leave no blob behind; once the file
 * job has run, the queue deletes the blob (shared/jobs/contracts.ts `blobOf`). `digest` asks for
 * the upload's fingerprint digest (Idempotency-Key).
 */
export async function receiveValidatedUpload<S extends z.ZodType>(
  deps: Pick<ApiDeps, 'blobs' | 'maxUploadBytes' | 'config'>,
  req: Request,
  res: Response,
  principal: Principal,
  endpoint: Extract<UploadEndpoint, 'v1-file' | 'v2-file'>,
  schema: S,
  options: { digest?: boolean; blobs?: BlobSink } = {},
): Promise<{ upload: MultipartFile; fields: z.output<S> }> {
  const upload = await receiveMultipartFile(req, res, {
    blobs: options.blobs ?? deps.blobs,
    key: uploadBlobKey(principal.accountId),
    maxBytes: deps.maxUploadBytes(principal, endpoint),
    drainMaxBytes: deps.config.UPLOAD_DRAIN_MAX_BYTES,
    digest: options.digest,
  });
  try {
    return { upload, fields: parseWith(schema, upload.fields) };
  } catch (err) {
    await (options.blobs ?? deps.blobs).delete(upload.blob.key);
    throw err;
  }
}
