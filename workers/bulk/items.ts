/** One item of an NDJSON bulk job: the same decoding and digest as a /v2/batch item (shared/jobs/compute.ts). */
import type { ChunkInputLine, ChunkSummary, ResultLine } from '../../shared/bulk/model.js';
import { encodingProblem } from '../../shared/hashing/encoding.js';
import { sha224Hex } from '../../shared/hashing/sha224.js';

export function hashItem(line: ChunkInputLine): ResultLine {
  const data = line.data ?? '';
  const encoding = line.encoding ?? 'utf8';
  // utf8 text is hashed as the string itself: crypto encodes it as UTF-8, with no Buffer in between.
  if (encoding === 'utf8') return { id: line.id, hash: sha224Hex(data), bytes: Buffer.byteLength(data, 'utf8') };
  const problem = encodingProblem(data, encoding);
  if (problem !== undefined) return { id: line.id, error: { code: 'INVALID_INPUT', message: problem } };
  const bytes = Buffer.from(data, encoding);
  return { id: line.id, hash: sha224Hex(bytes), bytes: bytes.length };
}

/**
 * A result line as NDJSON, the same text as JSON.stringify's: a hash line is written from a
 * template (only the id needs escaping; the hash is hex, the size a number): a quarter of
 * JSON.stringify's time for it (docs/decisions.md "Bulk jobs").
 */
export function resultText(line: ResultLine): string {
  if ('error' in line) return `${JSON.stringify(line)}\n`;
  return `{"id":${JSON.stringify(line.id)},"hash":"${line.hash}","bytes":${line.bytes}}\n`;
}

/** Results as a chunk's part and its summary: URL and S3 chunks (a few hundred lines: text is cheap enough). */
export function renderResults(results: readonly ResultLine[]): { part: Buffer; summary: ChunkSummary } {
  const summary: ChunkSummary = { done: 0, failed: 0, bytes: 0, partBytes: 0 };
  let text = '';
  for (const line of results) {
    if ('error' in line) summary.failed++;
    else {
      summary.done++;
      summary.bytes += line.bytes;
    }
    text += resultText(line);
  }
  const part = Buffer.from(text, 'utf8');
  summary.partBytes = part.length;
  return { part, summary };
}
