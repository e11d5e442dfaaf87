import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { decodedLength, encodingProblem, INPUT_ENCODINGS, OUTPUT_FORMATS, type InputEncoding } from '../../shared/hashing/encoding.js';
import { isHexDigest } from '../../shared/hashing/verify.js';

extendZodWithOpenApi(z);

export { z };

/** A response body as its schema describes it: renderers return this, so a body cannot drift from the document. */
export type Body<S extends z.ZodType> = z.output<S>;

/** A required string whose messages name the field (docs/api.md "v2 endpoints": "the data parameter is required"). */
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

/** chunk_size: default 1 MB (docs/api.md "v2 endpoints"); bounds are this service's (docs/decisions.md). */
export function chunkSize(field: string) {
  return z.coerce
    .number({ error: () => `${field} must be an integer number of bytes` })
    .int({ error: () => `${field} must be an integer number of bytes` })
    .min(1024, { error: () => `${field} must be at least 1024 bytes` })
    .max(64 * MiB, { error: () => `${field} must be at most ${64 * MiB} bytes` })
    .default(MiB);
}

/** Every timestamp an answer carries: ISO 8601 UTC (RFC 3339), so generators type it as a date-time. */
export const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' });

/** A field's path as the error details name it: `items[3].data`, `options.encoding`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)),
    '',
  );
}

/**
 * An encoded input once its schema has checked it: the text as sent, its encoding, and the size
 * in bytes it decodes to (what the executor weighs against INLINE_MAX_BYTES). Schemas own the
 * check, so no handler or transport decodes by hand.
 */
export interface EncodedInput {
  data: string;
  encoding: InputEncoding;
  bytes: number;
}

/**
 * Inside a schema's `transform`: check that `data` decodes under `encoding` and measure it, or
 * record an INVALID_INPUT issue at `path` (api/http/validate.ts turns the first issue into the
 * error) and return undefined.
 */
export function checkEncoded(
  ctx: z.RefinementCtx,
  data: string,
  encoding: InputEncoding,
  path: ReadonlyArray<string | number>,
): EncodedInput | undefined {
  const problem = encodingProblem(data, encoding, fieldPath(path));
  if (problem !== undefined) {
    ctx.addIssue({ code: 'custom', message: problem, path: [...path], input: data });
    return undefined;
  }
  return { data, encoding, bytes: decodedLength(data, encoding) };
}

/**
 * Inside a batch schema's `transform`: check every item's `field` under the batch's encoding, in
 * order, stopping at the first that does not decode; the total decoded size, or undefined.
 */
export function checkEncodedItems<F extends string>(
  ctx: z.RefinementCtx,
  items: ReadonlyArray<Readonly<Record<F, string>>>,
  field: F,
  encoding: InputEncoding,
): number | undefined {
  let bytes = 0;
  for (let index = 0; index < items.length; index++) {
    const data = (items[index] as Readonly<Record<F, string>>)[field];
    // Every string decodes as utf8; for the others the path (and its name) is built only for a
    // failing item, since a batch is up to 1000 items and nearly all of them pass.
    if (encoding !== 'utf8' && encodingProblem(data, encoding) !== undefined) {
      checkEncoded(ctx, data, encoding, ['items', index, field]);
      return undefined;
    }
    bytes += decodedLength(data, encoding);
  }
  return bytes;
}
