/**
 * A chunk's items read in place (workers/bulk/item-chunk.ts) give the same result part, byte for
 * byte, as reading each line with readline and JSON.parse and rendering each result as text: on
 * the lines the API node writes and on every shape the in-place reading leaves to JSON.parse.
 */
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ChunkInputLine, ChunkSummary, ResultLine } from '../../shared/bulk/model.js';
import { hashItemChunk } from '../../workers/bulk/item-chunk.js';
import { hashItem, renderResults } from '../../workers/bulk/items.js';
import { itemAt } from './items.js';

/** What a chunk made of its input before: readline, JSON.parse per line, hashItem, the rendering URL and S3 chunks still use. */
async function byLines(input: Buffer): Promise<{ part: Buffer; summary: ChunkSummary }> {
  const results: ResultLine[] = [];
  for await (const line of createInterface({ input: Readable.from([input]), crlfDelay: Infinity })) {
    if (line.length > 0) results.push(hashItem(JSON.parse(line) as ChunkInputLine));
  }
  return renderResults(results);
}

const running = { stillRunning: () => Promise.resolve(true), checkEvery: 2000, output: Buffer.alloc(64) };

async function expectSame(input: Buffer): Promise<Buffer> {
  const expected = await byLines(input);
  const got = await hashItemChunk(input, running);
  expect(got?.part.toString('utf8')).toBe(expected.part.toString('utf8'));
  expect(got?.part.equals(expected.part)).toBe(true);
  expect(got?.summary).toEqual(expected.summary);
  return got!.part;
}

const lines = (...texts: string[]): Buffer => Buffer.from(texts.map((t) => `${t}\n`).join(''), 'utf8');

describe('a chunk of items read in place', () => {
  it('hashes the lines the API node writes as JSON.parse would (utf8 with multi-byte text, hex, base64, bad hex)', async () => {
    const items = Array.from({ length: 5000 }, (_, n) => JSON.stringify(itemAt(n)));
    const part = await expectSame(lines(...items));
    // And against node:crypto directly, on the first line.
    const first = JSON.parse(part.toString('utf8').split('\n')[0]!) as { id: string; hash: string; bytes: number };
    const data = Buffer.from(itemAt(0).data, 'hex');
    expect(first).toEqual({ id: 'i0', hash: createHash('sha224').update(data).digest('hex'), bytes: data.length });
  });

  it('leaves to JSON.parse every line of another shape, with the same result text', async () => {
    await expectSame(
      lines(
        JSON.stringify({ id: 'q"uote', data: 'a"b', encoding: 'utf8' }),
        JSON.stringify({ id: 'back\\slash', data: 'c\\d', encoding: 'utf8' }),
        JSON.stringify({ id: 'tab\there', data: 'line\nbreak\u0001', encoding: 'utf8' }),
        JSON.stringify({ id: 'lone \ud800 surrogate', data: 'x\udfffy', encoding: 'utf8' }),
        '{"id":"esc\\u00e9","data":"\\u00e9\\u2028","encoding":"utf8"}',
        '{"id":"no-encoding","data":"plain"}',
        '{"data":"other order","id":"o1","encoding":"utf8"}',
        '{"id":"extra","data":"x","encoding":"utf8","more":1}',
        '{"id":"dup","data":"x","encoding":"utf8","id":"dup2"}',
        '{ "id": "spaced", "data": "x", "encoding": "utf8" }',
        '{"id":"caps","data":"x","encoding":"UTF8"}',
        '{"id":"h","data":"00ff","encoding":"hex"}',
        '{"id":"b","data":"AP8=","encoding":"base64"}',
        '{"id":"bad b64","data":"***","encoding":"base64"}',
        '{"id":"","data":"","encoding":"utf8"}',
        '{"id":"emoji 😀","data":"😀 ✓ é","encoding":"utf8"}',
        '{"id":"ws after","data":"x","encoding":"utf8"}   ',
      ),
    );
  });

  it('splits lines as readline did: CRLF, a lone CR, empty lines and no final newline', async () => {
    const a = '{"id":"a","data":"1","encoding":"utf8"}';
    const b = '{"id":"b","data":"2","encoding":"utf8"}';
    await expectSame(Buffer.from(`${a}\r\n${b}\r\n\n\n${a}\r${b}\n${a}`, 'utf8'));
  });

  it('reads malformed UTF-8 as readline decoded it (U+FFFD)', async () => {
    const input = Buffer.concat([
      Buffer.from('{"id":"bad ', 'utf8'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('","data":"x', 'utf8'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('","encoding":"utf8"}\n{"id":"ok","data":"y","encoding":"utf8"}\n', 'utf8'),
    ]);
    await expectSame(input);
  });

  it('throws the SyntaxError JSON.parse throws for a line that is not JSON', async () => {
    await expect(hashItemChunk(lines('{"id":"a","data":"1","encoding":"utf8"}', '{"id":'), running)).rejects.toBeInstanceOf(SyntaxError);
  });

  it('asks whether the job still runs every checkEvery items, and stops when it does not', async () => {
    const input = lines(...Array.from({ length: 10 }, (_, n) => JSON.stringify(itemAt(n))));
    let asked = 0;
    const stopAtSecond = { checkEvery: 3, stillRunning: () => Promise.resolve(++asked < 2), output: Buffer.alloc(64) };
    expect(await hashItemChunk(input, stopAtSecond)).toBeUndefined();
    expect(asked).toBe(2);
    asked = 0;
    const always = { checkEvery: 3, stillRunning: () => Promise.resolve(++asked > 0), output: Buffer.alloc(64) };
    expect((await hashItemChunk(input, always))?.summary.done).toBe(10);
    // Before items 3, 6 and 9: never before the first.
    expect(asked).toBe(3);
  });
});
