/**
 * An S3 source's credentials travel with its chunks sealed (AES-256-GCM under SECRETS_KEY, the
 * key webhook secrets use), bound to the bulk id: never in the clear in a job, the store or a log
 * (docs/decisions.md "Bulk jobs").
 */
import type { SecretBox } from '../webhooks/secrets.js';
import type { S3Credentials } from './s3-source.js';

export function sealCredentials(box: SecretBox, credentials: S3Credentials, bulkId: string): string {
  return box.seal(JSON.stringify(credentials), `bulk:${bulkId}`);
}

export function openCredentials(box: SecretBox, sealed: string, bulkId: string): S3Credentials {
  const value = JSON.parse(box.open(sealed, `bulk:${bulkId}`)) as Partial<S3Credentials>;
  if (typeof value.accessKeyId !== 'string' || typeof value.secretAccessKey !== 'string') throw new Error('sealed credentials: bad shape');
  return {
    accessKeyId: value.accessKeyId,
    secretAccessKey: value.secretAccessKey,
    ...(typeof value.sessionToken === 'string' ? { sessionToken: value.sessionToken } : {}),
  };
}
