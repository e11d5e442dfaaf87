/**
 * The objects of a bulk job's chunk, read from the caller's bucket and hashed as they stream: an
 * object deleted (or refused) since the listing is its item's error. The credentials are opened
 * here, for this chunk only, and never logged.
 */
import type { ChunkInputLine, ChunkTask, ResultLine } from '../../shared/bulk/model.js';
import { S3_CHUNK_CONCURRENCY } from '../../shared/bulk/model.js';
import { readSourceObject, sourceClient, sourceError } from '../../shared/bulk/s3-source.js';
import { openCredentials } from '../../shared/bulk/seal.js';
import { ServiceError } from '../../shared/errors.js';
import { sha224Stream } from '../../shared/hashing/sha224.js';
import { toJobError } from '../../shared/queue/execute.js';
import type { SecretBox } from '../../shared/webhooks/secrets.js';
import { mapBounded } from './limit.js';

export async function hashS3Objects(
  lines: readonly ChunkInputLine[],
  task: ChunkTask,
  options: { allowLoopback: boolean; secrets?: SecretBox },
  signal?: AbortSignal,
): Promise<ResultLine[]> {
  const source = task.s3;
  // Without the key that sealed them the credentials cannot be had: a configuration fault, retried.
  if (source === undefined || options.secrets === undefined)
    throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'this worker cannot open S3 source credentials (SECRETS_KEY)' });
  const client = sourceClient(
    { ...source, credentials: openCredentials(options.secrets, source.sealed, task.bulkId) },
    options.allowLoopback,
  );
  try {
    return await mapBounded(lines, { total: S3_CHUNK_CONCURRENCY, perGroup: S3_CHUNK_CONCURRENCY, group: () => '' }, async (line) => {
      // A cancelled job (the signal) reads no more objects, and the reads in flight are aborted.
      if (signal?.aborted === true) return { id: line.id, error: { code: 'SERVICE_UNAVAILABLE', message: 'bulk job cancelled' } };
      try {
        const { digest, size } = await sha224Stream(await readSourceObject(client, source.bucket, line.id, signal));
        return { id: line.id, hash: digest.toString('hex'), bytes: size };
      } catch (err) {
        return { id: line.id, error: toJobError(sourceError(err)) };
      }
    });
  } finally {
    client.destroy();
  }
}
