import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { INPUT_ENCODINGS, OUTPUT_FORMATS } from '../../shared/hashing/encoding.js';
import { isHexDigest } from '../../shared/hashing/verify.js';

extendZodWithOpenApi(z);

export { z };

/** A required string whose messages name the field (SPEC v2 /hash: "the data parameter is required"). */
export function requiredString(field: string): z.ZodString {
  return z.string({ error: (issue) => (issue.input === undefined ? `The ${field} parameter is required` : `${field} must be a string`) });
}

export function inputEncoding(field: string) {
  return z
    .enum(INPUT_ENCODINGS, { error: () => `${field} must be one of ${INPUT_ENCODINGS.join(', ')}` })
    .default('utf8')
    .openapi({ description: 'Encoding of the input string' });
}

export function outputFormat(field: string, formats: readonly ['hex', 'base64', ...Array<'binary'>] = OUTPUT_FORMATS) {
  return z
    .enum(formats as readonly [string, ...string[]], { error: () => `${field} must be one of ${formats.join(', ')}` })
    .default('hex')
    .transform((v) => v as (typeof OUTPUT_FORMATS)[number])
    .openapi({ description: 'Digest format; binary is returned base64-encoded' });
}

export function hexDigest(field: string) {
  return requiredString(field).refine(isHexDigest, { message: `${field} must be a 56-character hexadecimal SHA-224 digest` });
}

/** Form fields and query values arrive as strings. */
export function booleanString(field: string) {
  return z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: () => `${field} must be true or false` })
    .transform((v) => v === true || v === 'true' || v === '1');
}

export const MiB = 1024 * 1024;

/** chunk_size: SPEC default 1 MB; bounds are this service's (docs/decisions.md). */
export function chunkSize(field: string) {
  return z.coerce
    .number({ error: () => `${field} must be an integer number of bytes` })
    .int({ error: () => `${field} must be an integer number of bytes` })
    .min(1024, { error: () => `${field} must be at least 1024 bytes` })
    .max(64 * MiB, { error: () => `${field} must be at most ${64 * MiB} bytes` })
    .default(MiB);
}

export const timestamp = z.string().openapi({ example: '2026-11-21T12:00:00.000Z' });
