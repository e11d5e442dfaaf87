/** Parsers for the NIST CAVP .rsp files and the JSON vector files of test/vectors (each file's source in test/vectors/SOURCES.md). */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const VECTOR_DIR = path.join(import.meta.dirname, '..', 'vectors');

export interface ShaVector {
  len: number;
  msg: Buffer;
  md: string;
}
export interface MonteCheckpoint {
  count: number;
  md: string;
}
export interface HmacVector {
  key: Buffer;
  msg: Buffer;
  mac: string;
  tlen: number;
}

function rspRecords(file: string): Array<Record<string, string>> {
  const text = readFileSync(path.join(VECTOR_DIR, file), 'utf8').replace(/\r/g, '');
  const records: Array<Record<string, string>> = [];
  let current: Record<string, string> = {};
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#')) continue;
    const sectionMatch = /^\[(.+)\]$/.exec(line);
    if (sectionMatch) {
      section = sectionMatch[1]!;
      continue;
    }
    if (line === '') {
      if (Object.keys(current).length > 0) records.push(current);
      current = {};
      continue;
    }
    const kv = /^(\w+)\s*=\s*(.*)$/.exec(line);
    if (kv) {
      current[kv[1]!] = kv[2]!;
      current.__section = section;
    }
  }
  if (Object.keys(current).length > 0) records.push(current);
  return records;
}

/** SHA224ShortMsg.rsp / SHA224LongMsg.rsp. Len is in bits; Len = 0 has Msg = 00 meaning empty. */
export function loadShaVectors(file: 'SHA224ShortMsg.rsp' | 'SHA224LongMsg.rsp'): ShaVector[] {
  return rspRecords(file)
    .filter((r) => r.Len !== undefined && r.Msg !== undefined && r.MD !== undefined)
    .map((r) => {
      const len = Number(r.Len);
      return { len, msg: len === 0 ? Buffer.alloc(0) : Buffer.from(r.Msg!, 'hex'), md: r.MD!.toLowerCase() };
    });
}

/** SHA224Monte.rsp: the seed and the 100 checkpoints of SHAVS §6.4. */
export function loadMonte(): { seed: Buffer; checkpoints: MonteCheckpoint[] } {
  const records = rspRecords('SHA224Monte.rsp');
  const seedRecord = records.find((r) => r.Seed !== undefined);
  if (!seedRecord) throw new Error('Monte seed missing');
  const checkpoints = records
    .filter((r) => r.COUNT !== undefined && r.MD !== undefined)
    .map((r) => ({ count: Number(r.COUNT), md: r.MD!.toLowerCase() }));
  return { seed: Buffer.from(seedRecord.Seed!, 'hex'), checkpoints };
}

/**
 * SHAVS Monte Carlo: MD0 = MD1 = MD2 = seed; for 1000 iterations Mi = MD(i-3)||MD(i-2)||MD(i-1),
 * MDi = SHA(Mi); the checkpoint is MD1002, which seeds the next round.
 */
export function runMonte(seed: Buffer, rounds: number, hash: (msg: Buffer) => Buffer): string[] {
  const out: string[] = [];
  let current = seed;
  for (let j = 0; j < rounds; j++) {
    let a = current,
      b = current,
      c = current;
    for (let i = 0; i < 1000; i++) {
      const md = hash(Buffer.concat([a, b, c]));
      a = b;
      b = c;
      c = md;
    }
    current = c;
    out.push(c.toString('hex'));
  }
  return out;
}

/** HMAC.rsp, section [L=28] only (HMAC-SHA-224). Mac is truncated to Tlen bytes. */
export function loadNistHmac224(): HmacVector[] {
  return rspRecords('HMAC.rsp')
    .filter((r) => r.__section === 'L=28' && r.Key !== undefined)
    .map((r) => ({ key: Buffer.from(r.Key!, 'hex'), msg: Buffer.from(r.Msg!, 'hex'), mac: r.Mac!.toLowerCase(), tlen: Number(r.Tlen) }));
}

export interface WycheproofTest {
  tcId: number;
  key: string;
  msg: string;
  tag: string;
  result: 'valid' | 'invalid' | 'acceptable';
  tagSize: number;
}

export function loadWycheproofHmac224(): WycheproofTest[] {
  const json = JSON.parse(readFileSync(path.join(VECTOR_DIR, 'hmac_sha224_test.json'), 'utf8')) as {
    testGroups: Array<{ tagSize: number; tests: Array<Omit<WycheproofTest, 'tagSize'>> }>;
  };
  return json.testGroups.flatMap((g) => g.tests.map((t) => ({ ...t, tagSize: g.tagSize })));
}

export interface Rfc4231Vector {
  name: string;
  key_hex: string;
  data_hex: string;
  hmac_sha224_hex: string;
  truncate_bits?: number;
}

export function loadRfc4231(): Rfc4231Vector[] {
  return JSON.parse(readFileSync(path.join(VECTOR_DIR, 'rfc4231_hmac_sha224.json'), 'utf8')) as Rfc4231Vector[];
}
