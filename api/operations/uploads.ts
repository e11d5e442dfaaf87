import type { Principal } from '../../shared/auth/principal.js';
import { isServiceError } from '../../shared/errors.js';
import type { BlobSink } from '../../shared/blob/types.js';
import { uploadResult } from '../../shared/jobs/compute.js';
import type { JobKind, JobPayloads, JobResults } from '../../shared/jobs/contracts.js';
import type { WebhookTarget } from '../../shared/queue/types.js';
import type { ApiDeps } from '../deps.js';
import type { Idempotency } from '../http/idempotency.js';
import { digestSink } from '../uploads/digest-sink.js';

type UploadKind = Extract<JobKind, 'file' | 'stream'>;

/**
 * Until the queue holds its job, a stored upload is this request's to delete. `work` runs or
 * submits the job; if it fails with anything but JOB_TIMEOUT (that job exists and deletes its blob
 * when it finishes) the blob is deleted before the error goes on. Deleting is idempotent: a job
 * that failed has already removed it.
 */
async function deletingOnFailure<T>(deps: Pick<ApiDeps, 'blobs'>, key: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(isServiceError(err) && err.code === 'JOB_TIMEOUT')) await deps.blobs.delete(key).catch(() => undefined);
    throw err;
  }
}

/** Hash an upload: a file or stream job run synchronously (SYNC_TIMEOUT). */
export function hashUpload<K extends UploadKind>(
  deps: Pick<ApiDeps, 'blobs' | 'executor'>,
  kind: K,
  payload: JobPayloads[K],
  principal: Principal,
): Promise<JobResults[K]> {
  return deletingOnFailure(deps, payload.blob.key, () => deps.executor.run(kind, payload, principal));
}

/** Submit a file or stream job (async); an idempotent replay reuses the first job and drops the bytes uploaded again. */
export function submitUpload<K extends UploadKind>(
  deps: Pick<ApiDeps, 'blobs' | 'executor'>,
  kind: K,
  payload: JobPayloads[K],
  principal: Principal,
  idempotency: Idempotency | undefined,
  webhook?: WebhookTarget,
): Promise<{ id: string; created: boolean }> {
  return deletingOnFailure(deps, payload.blob.key, async () => {
    const job = await deps.executor.submit(kind, payload, principal, idempotency, webhook);
    if (!job.created) await deps.blobs.delete(payload.blob.key);
    return job;
  });
}

/**
 * Where one request's upload goes, and how its job is then run. A synchronous upload, when
 * HASH_UPLOADS_WHILE_RECEIVING (default), is hashed on this node as its bytes arrive and never
 * stored: its job is computed inline, like a small hash (docs/decisions.md "Jobs and modes"). An
 * async upload, or any upload with the setting off, goes to the blob store and the queue.
 */
export interface UploadReceiver {
  blobs: BlobSink;
  hash<K extends UploadKind>(kind: K, payload: JobPayloads[K], principal: Principal): Promise<JobResults[K]>;
}

export function uploadReceiver(deps: Pick<ApiDeps, 'blobs' | 'executor' | 'config'>, options: { async: boolean }): UploadReceiver {
  if (options.async || !deps.config.HASH_UPLOADS_WHILE_RECEIVING) {
    return { blobs: deps.blobs, hash: (kind, payload, principal) => hashUpload(deps, kind, payload, principal) };
  }
  const sink = digestSink();
  return {
    blobs: sink,
    hash: (kind, payload) => {
      const { digest, size } = sink.received();
      return Promise.resolve(deps.executor.inline(kind, () => uploadResult(payload, digest, size)));
    },
  };
}
