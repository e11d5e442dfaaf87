/**
 * An NDJSON bulk body taken in bytes (api/uploads/ndjson-splitter.ts, bulk-item-intake.ts,
 * plain-item-line.ts) gives the chunk lines, byte for byte, of the string reader it replaced
 * (a StringDecoder over the body, JSON.parse and JSON.stringify per line), whatever the pieces
 * the body arrives in: on the lines copied as they are and on every shape left to JSON.parse,
 * with the same 400 for the same line and the same byte count for the plan's limit.
 */
import { StringDecoder } from 'node:string_decoder';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../shared/errors.js';
import { BulkItemIntake } from '../../api/uploads/bulk-item-intake.js';
import { parseItemLine } from '../../api/uploads/bulk-items.js';
import { ChunkLineBatch } from '../../api/uploads/chunk-line-batch.js';
import { NdjsonSplitter } from '../../api/uploads/ndjson-splitter.js';

const LIMITS = { maxItems: 1_000_000, maxBytes: 1 << 30 };
const LINE_LIMITS = { maxLineBytes: 1 << 20, maxBodyBytes: 1 << 30 };

type Outcome = { chunk: string; bytes: number } | { error: string; details: string | undefined };

const failure = (err: unknown): Outcome => {
  if (!(err instanceof ServiceError)) throw err;
  return { error: err.code, details: err.details };
};

/** The reader before: the body decoded as it arrived, each line trimmed, parsed, checked and stringified. */
function byStrings(pieces: Buffer[], limits = LIMITS): Outcome {
  try {
    const decoder = new StringDecoder('utf8');
    const texts: string[] = [];
    let pending = '';
    for (const piece of pieces) {
      pending += decoder.write(piece);
      const cut = pending.split('\n');
      pending = cut.pop()!;
      texts.push(...cut);
    }
    pending += decoder.end();
    if (pending.length > 0) texts.push(pending);
    let chunk = '';
    let items = 0;
    let bytes = 0;
    texts.forEach((text, index) => {
      if (text.trim().length === 0) return;
      const parsed = parseItemLine(text, index + 1);
      bytes += parsed.bytes;
      if (items >= limits.maxItems) throw new ServiceError('PAYLOAD_TOO_LARGE', { details: 'items' });
      if (bytes > limits.maxBytes) throw new ServiceError('PAYLOAD_TOO_LARGE', { details: 'bytes' });
      items++;
      chunk += `${JSON.stringify(parsed.item)}\n`;
    });
    return { chunk, bytes };
  } catch (err) {
    return failure(err);
  }
}

/** The reader now, given the body in `pieces`. */
function byBytes(pieces: Buffer[], limits = LIMITS): { chunk: Buffer } | Outcome {
  const batch = new ChunkLineBatch();
  const intake = new BulkItemIntake(limits, batch);
  const splitter = new NdjsonSplitter(LINE_LIMITS, (bytes, start, end) => intake.line(bytes, start, end));
  const taken: Buffer[] = [];
  try {
    for (const piece of pieces) {
      splitter.push(piece);
      taken.push(batch.take().bytes);
    }
    splitter.end();
    taken.push(batch.take().bytes);
    return { chunk: Buffer.concat(taken) };
  } catch (err) {
    return failure(err);
  }
}

/** A seeded generator, so a failure is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

function cutInPieces(body: Buffer, next: () => number, largest: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < body.length;) {
    const size = 1 + Math.floor(next() * largest);
    pieces.push(body.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

/**
 * Compares both readers on `body` whole and cut into pieces of up to each of `largest` bytes;
 * returns the chunk bytes.
 */
function expectSame(body: Buffer, seed = 1, largest: readonly number[] = [3, 64, 4096]): Outcome {
  const expected = byStrings([body]);
  const next = random(seed);
  for (const pieces of [[body], ...largest.map((size) => cutInPieces(body, next, size))]) {
    expect(byStrings(pieces)).toEqual(expected);
    const got = byBytes(pieces);
    if ('error' in expected) expect(got).toEqual(expected);
    else {
      expect('chunk' in got && Buffer.isBuffer(got.chunk)).toBe(true);
      const chunk = (got as { chunk: Buffer }).chunk;
      expect(chunk.toString('utf8')).toBe(expected.chunk);
      expect(chunk.equals(Buffer.from(expected.chunk, 'utf8'))).toBe(true);
    }
  }
  if ('bytes' in expected && expected.bytes > 0) {
    // The plan's byte limit sees the same count: exactly enough passes, a byte less is refused.
    expect(byBytes([body], { maxItems: LIMITS.maxItems, maxBytes: expected.bytes })).toHaveProperty('chunk');
    expect(byBytes([body], { maxItems: LIMITS.maxItems, maxBytes: expected.bytes - 1 })).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' });
  }
  return expected;
}

const IDS = [
  'a',
  'i0',
  'é',
  '日本語',
  '😀',
  'x'.repeat(256),
  'é'.repeat(256),
  '😀'.repeat(128),
  'tab\there',
  'q"uote',
  'back\\slash',
  '\u2028',
  'ctl\u0001',
];
const DATA = [
  '',
  'hello',
  'é and 日本 and 😀',
  '\u0000\u001f',
  'line\nbreak',
  '"',
  '\\',
  '\u2028\u2029',
  'deadBEEF',
  'abc',
  'aGVsbG8=',
  'aGVsbA==',
  'a===',
  '_-_-',
  'zz',
  'é',
];
const ENCODINGS = [undefined, 'utf8', 'hex', 'base64'] as const;

/** A line in one of the shapes a client may send for one item. */
function itemLine(next: () => number): Buffer {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const id = pick(IDS);
  const data = pick(DATA);
  const encoding = pick(ENCODINGS);
  const item = encoding === undefined ? { id, data } : { id, data, encoding };
  const text = JSON.stringify(item);
  switch (Math.floor(next() * 10)) {
    case 0:
      return Buffer.from(JSON.stringify(item, null, 1).replace(/\n/g, ' '));
    case 1:
      return Buffer.from(JSON.stringify({ data, id, ...(encoding === undefined ? {} : { encoding }) }));
    case 2:
      return Buffer.from(JSON.stringify({ ...item, extra: [1, { a: 'b' }] }));
    case 3:
      return Buffer.from(`${text}\r`);
    case 4:
      // Every non-ASCII character escaped.
      return Buffer.from(text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
    case 5: {
      // Bytes that are not UTF-8 inside the data (and, sometimes, a truncated sequence).
      const bytes = Buffer.from(text);
      const at = bytes.indexOf('"data":"') + 8;
      return Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from(pick([[0xff], [0xc3], [0xe6, 0x97], [0xed, 0xa0, 0x80], [0xc0, 0xaf]])),
        bytes.subarray(at),
      ]);
    }
    default:
      return Buffer.from(text);
  }
}

const body = (lines: Array<string | Buffer>): Buffer => Buffer.concat(lines.map((l) => Buffer.concat([Buffer.from(l), Buffer.from('\n')])));

describe('an NDJSON bulk body taken in bytes', () => {
  it('copies the canonical lines through unchanged, adding the utf8 encoding where it was left out', () => {
    const lines = Array.from({ length: 500 }, (_, n) =>
      n % 2 === 0
        ? JSON.stringify({ id: `i${n}`, data: `item ${n} é 😀`, encoding: 'utf8' })
        : JSON.stringify({ id: `i${n}`, data: 'x'.repeat(n % 97) }),
    );
    const expected = expectSame(body(lines));
    expect(expected).toHaveProperty('chunk');
    expect((expected as { chunk: string }).chunk.split('\n')[1]).toBe('{"id":"i1","data":"x","encoding":"utf8"}');
  });

  it('gives the same chunk lines on thousands of shapes: escapes, unicode, key orders, extra fields, CRLF, invalid UTF-8, hex and base64, long ids', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const next = random(seed);
      const lines = Array.from({ length: 200 }, () => itemLine(next));
      // Every shape here is an item (no id passes 256 characters): each body is taken whole.
      // Pieces of 1–3 bytes (a line cut at every byte) for the first seeds only: at a few
      // thousand pieces per body they were most of this file's time.
      expect(expectSame(body(lines), seed, seed <= 5 ? [3, 64, 4096] : [64, 4096])).toHaveProperty('chunk');
    }
  });

  it('keeps blank and whitespace lines out of the chunk but counts them in line numbers', () => {
    const lines = ['', '   ', '\t', '\r', '\u00a0', '\ufeff', JSON.stringify({ id: 'a', data: 'b' }), '', '{"id":"b","data":"c"}'];
    expect(expectSame(body(lines))).toEqual({
      chunk: '{"id":"a","data":"b","encoding":"utf8"}\n{"id":"b","data":"c","encoding":"utf8"}\n',
      bytes: 2,
    });
    // A last line without its newline, and one that is only a truncated sequence.
    expectSame(Buffer.from('{"id":"a","data":"b"}\n{"id":"c","data":"d","encoding":"hex"}'));
    expectSame(Buffer.concat([Buffer.from('{"id":"a","data":"b"}\n'), Buffer.from([0xe6, 0x97])]));
  });

  it('refuses a line that is not an item with the same 400 naming the same line', () => {
    const good = JSON.stringify({ id: 'a', data: 'b' });
    const bad = [
      'nope',
      '[1]',
      'null',
      '{"id":5,"data":"x"}',
      '{"id":"","data":"x"}',
      `{"id":"${'x'.repeat(257)}","data":"x"}`,
      `{"id":"${'é'.repeat(257)}","data":"x"}`,
      '{"id":"a"}',
      '{"id":"a","data":1}',
      '{"id":"a","data":"x","encoding":"latin1"}',
      '{"id":"a","data":"x","encoding":null}',
      '{"id":"a","data":"x","encoding":"utf8"',
      '{"id":"a","data":"x"}}',
      '{"id":"a","data":"x\u0001"}',
      '{"id":"a","data":"x","encoding":"utf8"} x',
    ];
    for (const [index, line] of bad.entries()) {
      const outcome = expectSame(body([good, '', line, good]), index + 1);
      expect(outcome).toMatchObject({ error: 'INVALID_INPUT', details: expect.stringMatching(/^line 3: /) as unknown });
    }
  });

  it('holds the plan to its item limit at the same item', () => {
    const lines = body(Array.from({ length: 5 }, (_, n) => JSON.stringify({ id: `i${n}`, data: 'x' })));
    expect(byBytes([lines], { maxItems: 5, maxBytes: 100 })).toHaveProperty('chunk');
    expect(byBytes([lines], { maxItems: 4, maxBytes: 100 })).toEqual({
      error: 'PAYLOAD_TOO_LARGE',
      details: 'the plan allows 4 items in a bulk job',
    });
  });

  it('counts base64 and hex data as decodedLength does', () => {
    const values = [
      '',
      'a',
      'ab',
      'abc',
      'abcd',
      '=',
      '==',
      'a=',
      'a==',
      'ab=',
      'ab==',
      'abc=',
      'a===',
      '====',
      'aGVsbG8=',
      'aGVsbA==',
      'zz_-',
    ];
    const lines = values.flatMap((data, n) => [
      JSON.stringify({ id: `b${n}`, data, encoding: 'base64' }),
      JSON.stringify({ id: `h${n}`, data, encoding: 'hex' }),
    ]);
    for (const line of lines) expectSame(body([line]));
  });

  it('refuses a line longer than its bound while it is still arriving, counting characters', () => {
    const refusal = (push: () => void): Outcome | undefined => {
      try {
        push();
        return undefined;
      } catch (err) {
        return failure(err);
      }
    };
    const splitter = new NdjsonSplitter({ maxLineBytes: 8, maxBodyBytes: 100 }, () => undefined);
    // Eight two-byte characters are 16 bytes but 8 characters: within the bound.
    expect(refusal(() => splitter.push(Buffer.from('éééééééé')))).toBeUndefined();
    expect(refusal(() => splitter.push(Buffer.from('é')))).toEqual({
      error: 'PAYLOAD_TOO_LARGE',
      details: 'a line is longer than 8 bytes',
    });
    // Byte by byte (every multi-byte character split), after a complete line of 299 two-byte characters:
    // the same bound in characters (UTF-16 units, as the string reader counted), and a line that
    // ended does not count towards the next.
    for (const [unit, fits] of [
      ['é', 300],
      ['😀', 150],
      ['a', 300],
    ] as const) {
      const bytewise = new NdjsonSplitter({ maxLineBytes: 300, maxBodyBytes: 1 << 20 }, () => undefined);
      const push = (text: string): void => {
        for (const byte of Buffer.from(text)) bytewise.push(Buffer.from([byte]));
      };
      expect(refusal(() => push(`${'é'.repeat(299)}\n`))).toBeUndefined();
      expect(refusal(() => push(unit.repeat(fits)))).toBeUndefined();
      expect(refusal(() => push(unit))).toEqual({ error: 'PAYLOAD_TOO_LARGE', details: 'a line is longer than 300 bytes' });
    }
    const whole = new NdjsonSplitter({ maxLineBytes: 1000, maxBodyBytes: 10 }, () => undefined);
    expect(refusal(() => whole.push(Buffer.from('0123456789')))).toBeUndefined();
    expect(refusal(() => whole.push(Buffer.from('a')))).toEqual({
      error: 'PAYLOAD_TOO_LARGE',
      details: 'the plan allows 10 bytes of bulk input',
    });
  });
});
