/**
 * The items of one chunk, hashed from its input bytes into its result part: each line is read in
 * place (./item-scan.ts) and its utf8 data hashed as a view of the input, its hash line written
 * into one buffer (./result-buffer.ts); a line of any other shape is JSON.parsed and hashed as
 * before. The part is byte for byte what JSON.parse, hashItem and resultText make of the same
 * lines (test/bulk/item-chunk.test.ts), at about half their CPU per item (docs/decisions.md
 * "Bulk jobs").
 */
import { isUtf8 } from 'node:buffer';
import type { ChunkInputLine, ChunkSummary } from '../../shared/bulk/model.js';
import { sha224Hex } from '../../shared/hashing/sha224.js';
import { ItemCursor } from './item-scan.js';
import { hashItem, resultText } from './items.js';
import { ResultBuffer } from './result-buffer.js';

const NEWLINE = 0x0a;

export interface ItemChunkOptions {
  /** Asked every `checkEvery` items: false stops the chunk (the caller's cancel), and nothing is written. */
  stillRunning: () => Promise<boolean>;
  checkEvery: number;
  /** Where the part is written (it grows into another buffer if it does not fit: `storage` of the result). */
  output: Buffer;
}

/** Hashes every item line of `input` (NDJSON, as the API node stored it); undefined once `stillRunning` says false. */
export async function hashItemChunk(
  input: Buffer,
  options: ItemChunkOptions,
): Promise<{ part: Buffer; storage: Buffer; summary: ChunkSummary } | undefined> {
  // readline decoded the input with U+FFFD for malformed UTF-8; the in-place reading needs it well-formed.
  const bytes = isUtf8(input) ? input : Buffer.from(input.toString('utf8'), 'utf8');
  const out = new ResultBuffer(options.output);
  const cursor = new ItemCursor();
  const summary: ChunkSummary = { done: 0, failed: 0, bytes: 0, partBytes: 0 };
  let items = 0;
  // Before every checkEvery-th item but the first: a cancelled job's chunk stops within that many.
  const askNow = (): boolean => items > 0 && items % options.checkEvery === 0;
  for (let start = 0; start < bytes.length;) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end < 0) end = bytes.length;
    const lineStart = start;
    start = end + 1;
    if (end === lineStart) continue;
    if (cursor.scan(bytes, lineStart, end)) {
      if (askNow() && !(await options.stillRunning())) return undefined;
      items++;
      if (cursor.encoding === 'utf8') {
        // The data's bytes between the quotes are its UTF-8 encoding: what crypto hashes for the string.
        const size = cursor.dataEnd - cursor.dataStart;
        out.hashLine(bytes, cursor.idStart, cursor.idEnd, sha224Hex(bytes.subarray(cursor.dataStart, cursor.dataEnd)), size);
        summary.done++;
        summary.bytes += size;
        continue;
      }
      const line: ChunkInputLine = {
        id: bytes.toString('utf8', cursor.idStart, cursor.idEnd),
        data: bytes.toString('utf8', cursor.dataStart, cursor.dataEnd),
        encoding: cursor.encoding,
      };
      const result = hashItem(line);
      if ('error' in result) {
        out.text(resultText(result));
        summary.failed++;
      } else {
        out.hashLine(bytes, cursor.idStart, cursor.idEnd, result.hash, result.bytes);
        summary.done++;
        summary.bytes += result.bytes;
      }
      continue;
    }
    // Any other line, as readline split it before (at \r too) and JSON.parse read it.
    const text = bytes.toString('utf8', lineStart, end);
    for (const piece of text.includes('\r') ? text.split('\r') : [text]) {
      if (piece.length === 0) continue;
      if (askNow() && !(await options.stillRunning())) return undefined;
      items++;
      const result = hashItem(JSON.parse(piece) as ChunkInputLine);
      out.text(resultText(result));
      if ('error' in result) summary.failed++;
      else {
        summary.done++;
        summary.bytes += result.bytes;
      }
    }
  }
  const part = out.bytes();
  summary.partBytes = part.length;
  return { part, storage: out.storage, summary };
}
