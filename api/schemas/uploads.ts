/**
 * The headers of the tus 1.0 protocol at /v2/uploads (docs/decisions.md "Resumable uploads"), as
 * zod schemas: the one source of their validation and of their OpenAPI description. Fields are
 * named as Node presents headers (lower case).
 */
import { z } from './common.js';

export const TUS_VERSION = '1.0.0';
export const TUS_EXTENSIONS = 'creation,creation-with-upload,creation-defer-length,termination,expiration,checksum';
/** Upload-Checksum algorithms (tus checksum extension), as named on the wire and by node:crypto. */
export const TUS_CHECKSUM_ALGORITHMS = ['sha1', 'sha224', 'sha256'] as const;
export const TUS_CONTENT_TYPE = 'application/offset+octet-stream';

/** A non-negative decimal integer header (Upload-Length, Upload-Offset), safe as a JS number. */
const byteCount = (name: string) =>
  z
    .string({ error: () => `${name} is required` })
    .regex(/^(0|[1-9][0-9]{0,15})$/, { message: `${name} must be a non-negative integer` })
    .transform(Number)
    .refine(Number.isSafeInteger, { message: `${name} is too large` })
    .openapi({ type: 'string', description: `${name}: bytes, a non-negative integer` });

const HEX_SHA224 = /^[0-9a-fA-F]{56}$/;

export interface UploadMetadata {
  raw: string | undefined;
  filename: string;
  sha224: string | undefined;
}

/** Upload-Metadata: comma-separated `key base64value` pairs (value optional), keys unique. */
export const uploadMetadata = z
  .string()
  .max(4096, { message: 'Upload-Metadata is at most 4096 characters' })
  .optional()
  .transform((raw, ctx): UploadMetadata => {
    const values = new Map<string, string>();
    for (const pair of raw === undefined || raw.trim() === '' ? [] : raw.split(',')) {
      const [key, value, extra] = pair.trim().split(' ');
      if (key === undefined || key === '' || extra !== undefined || values.has(key) || (value !== undefined && !isBase64(value))) {
        ctx.addIssue({ code: 'custom', message: 'Upload-Metadata must be comma-separated "key base64value" pairs with unique keys' });
        return z.NEVER;
      }
      values.set(key, value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8'));
    }
    const sha224 = values.get('sha224');
    if (sha224 !== undefined && !HEX_SHA224.test(sha224)) {
      ctx.addIssue({ code: 'custom', message: 'Upload-Metadata sha224 must be 56 hexadecimal characters' });
      return z.NEVER;
    }
    return { raw, filename: values.get('filename') ?? values.get('name') ?? '', sha224: sha224?.toLowerCase() };
  })
  .openapi({
    type: 'string',
    description:
      'Comma-separated `key base64value` pairs. Read: `filename` (or `name`), reported by the job; `sha224`, the hex SHA-224 the finished bytes must have (verify on ingest: a mismatch fails the job with HASH_MISMATCH).',
  });

function isBase64(value: string): boolean {
  return /^[A-Za-z0-9+/]*={0,2}$/.test(value) && value.length % 4 === 0;
}

export const CreateUploadHeaders = z
  .object({
    'upload-length': byteCount('Upload-Length').optional(),
    'upload-defer-length': z.literal('1', { error: () => 'Upload-Defer-Length must be 1' }).optional(),
    'upload-metadata': uploadMetadata,
  })
  .transform((h, ctx) => {
    if ((h['upload-length'] === undefined) === (h['upload-defer-length'] === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'Send exactly one of Upload-Length and Upload-Defer-Length: 1', path: ['upload-length'] });
      return z.NEVER;
    }
    return { length: h['upload-length'], metadata: h['upload-metadata'] };
  });

export const PatchUploadHeaders = z
  .object({
    'upload-offset': byteCount('Upload-Offset'),
    'upload-length': byteCount('Upload-Length').optional(),
    'upload-checksum': z
      .string()
      .optional()
      .openapi({ description: 'tus checksum extension: `<algorithm> <base64 digest>` of this PATCH body; sha1, sha224 or sha256' }),
  })
  .transform((h, ctx) => {
    const checksum = h['upload-checksum'] === undefined ? undefined : parseChecksum(h['upload-checksum']);
    if (checksum === null) {
      ctx.addIssue({
        code: 'custom',
        message: `Upload-Checksum must be "<algorithm> <base64>" with algorithm one of ${TUS_CHECKSUM_ALGORITHMS.join(', ')}`,
        path: ['upload-checksum'],
      });
      return z.NEVER;
    }
    return { offset: h['upload-offset'], length: h['upload-length'], checksum };
  });

function parseChecksum(header: string): { algorithm: string; digest: Buffer } | null {
  const [algorithm, digest, extra] = header.trim().split(' ');
  if (algorithm === undefined || digest === undefined || extra !== undefined) return null;
  if (!(TUS_CHECKSUM_ALGORITHMS as readonly string[]).includes(algorithm) || !isBase64(digest) || digest === '') return null;
  return { algorithm, digest: Buffer.from(digest, 'base64') };
}

export const UploadIdParams = z.object({
  id: z.string().min(1).openapi({ description: 'The upload id, the last segment of its Location' }),
});
