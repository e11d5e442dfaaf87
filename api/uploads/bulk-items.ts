/**
 * One line of an NDJSON bulk body: `{"id", "data", "encoding"}`, the rules of a /v2/batch item
 * (docs/api.md "Bulk jobs"): `id` a string of 1–256 characters, `data` a string, `encoding`
 * utf8 (default), hex or base64. A line that breaks them refuses the whole job (400 naming the
 * line); data that does not decode in its encoding is that item's error in the results.
 */
import type { ChunkInputLine } from '../../shared/bulk/model.js';
import { ServiceError } from '../../shared/errors.js';
import { decodedLength } from '../../shared/hashing/encoding.js';

const ENCODINGS = new Set(['utf8', 'hex', 'base64']);

function badLine(lineNumber: number, problem: string): ServiceError {
  return new ServiceError('INVALID_INPUT', { details: `line ${lineNumber}: ${problem}` });
}

/** The item on the line, checked; `bytes` its data's decoded length (what the plan's byte limit counts). */
export function parseItemLine(text: string, lineNumber: number): { item: ChunkInputLine; bytes: number } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badLine(lineNumber, 'not a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badLine(lineNumber, 'not a JSON object');
  const { id, data, encoding } = value as Record<string, unknown>;
  if (typeof id !== 'string' || id.length === 0) throw badLine(lineNumber, 'id must be a non-empty string');
  if (id.length > 256) throw badLine(lineNumber, 'id must be at most 256 characters');
  if (typeof data !== 'string') throw badLine(lineNumber, 'data must be a string');
  if (encoding !== undefined && (typeof encoding !== 'string' || !ENCODINGS.has(encoding)))
    throw badLine(lineNumber, 'encoding must be one of utf8, hex, base64');
  const enc = (encoding ?? 'utf8') as NonNullable<ChunkInputLine['encoding']>;
  return { item: { id, data, encoding: enc }, bytes: decodedLength(data, enc) };
}
