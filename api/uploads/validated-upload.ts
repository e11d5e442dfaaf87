import type { Request } from 'express';
import type { z } from 'zod';
import type { Principal } from '../../shared/auth/principal.js';
import { uploadBlobKey } from '../../shared/naming.js';
import type { ApiDeps, UploadEndpoint } from '../deps.js';
import { parseWith } from '../http/validate.js';
import { receiveMultipartFile, type MultipartFile } from './multipart.js';

/**
 * A multipart upload (field `file`, at most the plan's size for `endpoint`) with its other form
 * fields validated by `schema`. Fields that fail validation leave no blob behind; once the file
 * job has run, the queue deletes the blob (shared/jobs/contracts.ts `blobOf`).
 */
export async function receiveValidatedUpload<S extends z.ZodType>(
  deps: Pick<ApiDeps, 'blobs' | 'maxUploadBytes'>,
  req: Request,
  principal: Principal,
  endpoint: Extract<UploadEndpoint, 'v1-file' | 'v2-file'>,
  schema: S,
): Promise<{ upload: MultipartFile; fields: z.output<S> }> {
  const upload = await receiveMultipartFile(req, { blobs: deps.blobs, key: uploadBlobKey(principal.accountId), maxBytes: deps.maxUploadBytes(principal, endpoint) });
  try {
    return { upload, fields: parseWith(schema, upload.fields) };
  } catch (err) {
    await deps.blobs.delete(upload.blob.key);
    throw err;
  }
}
