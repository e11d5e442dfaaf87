/**
 * Bulk test items and their expected result lines, computed with node:crypto: generated lazily
 * (a million items are never held as one string) and checked line by line.
 */
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';

export interface TestItem {
  id: string;
  data: string;
  encoding: 'utf8' | 'hex' | 'base64';
}

/** Item `n`: mostly utf8 (some multi-byte), every 7th hex, every 11th base64, every 1000th bad hex (an item error). */
export function itemAt(n: number): TestItem {
  const text = `item ${n} ✓ ${(n * 2654435761) % 4294967296}`;
  if (n % 1000 === 999) return { id: `i${n}`, data: 'zz', encoding: 'hex' };
  if (n % 7 === 0) return { id: `i${n}`, data: Buffer.from(text).toString('hex'), encoding: 'hex' };
  if (n % 11 === 0) return { id: `i${n}`, data: Buffer.from(text).toString('base64'), encoding: 'base64' };
  return { id: `i${n}`, data: text, encoding: 'utf8' };
}

export function expectedLine(n: number): { id: string; hash?: string; bytes?: number; failed: boolean } {
  const item = itemAt(n);
  if (n % 1000 === 999) return { id: item.id, failed: true };
  const bytes = Buffer.from(item.data, item.encoding);
  return { id: item.id, hash: createHash('sha224').update(bytes).digest('hex'), bytes: bytes.length, failed: false };
}

/** The NDJSON body of items 0…count-1, as a stream of 1000-line pieces. */
export function ndjsonBody(count: number): Readable {
  return Readable.from(
    (function* () {
      for (let start = 0; start < count; start += 1000) {
        let piece = '';
        for (let n = start; n < Math.min(count, start + 1000); n++) piece += `${JSON.stringify(itemAt(n))}\n`;
        yield piece;
      }
    })(),
  );
}

/** Reads result lines from `body` and checks each against node:crypto's digest, in input order; returns how many matched. */
export async function checkResults(body: Readable, count: number): Promise<{ lines: number; failed: number }> {
  let index = 0;
  let failed = 0;
  for await (const text of createInterface({ input: body, crlfDelay: Infinity })) {
    if (text === '') continue;
    const line = JSON.parse(text) as { id: string; hash?: string; bytes?: number; error?: { code: string } };
    const expected = expectedLine(index);
    if (line.id !== expected.id) throw new Error(`line ${index}: id ${line.id}, expected ${expected.id}`);
    if (expected.failed) {
      if (line.error?.code !== 'INVALID_INPUT') throw new Error(`line ${index}: expected an INVALID_INPUT error, got ${text}`);
      failed++;
    } else if (line.hash !== expected.hash || line.bytes !== expected.bytes)
      throw new Error(`line ${index}: ${text}, expected ${JSON.stringify(expected)}`);
    index++;
  }
  if (index !== count) throw new Error(`${index} result lines, expected ${count}`);
  return { lines: index, failed };
}

/** POST an NDJSON stream to /v2/bulk. */
export async function postNdjson(url: string, key: string, body: Readable | string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/v2/bulk`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson' },
    body: typeof body === 'string' ? body : (Readable.toWeb(body) as ReadableStream),
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: await res.json() };
}
