/**
 * C2SP tlog-tiles: tile paths (`tile/<L>/<N>[.p/<W>]`, `tile/entries/<N>[.p/<W>]`), tile contents
 * (the level-8L node hashes, concatenated) and entry bundles (big-endian uint16 length + entry).
 */
import { HASH_SIZE, type NodeReader } from './merkle.js';

export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 256;
/** Entries longer than this cannot be bundled (the length prefix is 16 bits). */
export const MAX_ENTRY_BYTES = 0xffff;

export interface TileRef {
  /** A tile level, or 'entries' for an entry bundle. */
  readonly level: number | 'entries';
  readonly index: number;
  /** 1..256; 256 is a full tile. */
  readonly width: number;
}

/** N as 3-digit path elements, every one but the last prefixed with 'x' (1234067 → x001/x234/067). */
export function encodeTileIndex(n: number): string {
  const groups: string[] = [];
  let rest = n;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

export function tilePath(ref: TileRef): string {
  const base = `tile/${ref.level}/${encodeTileIndex(ref.index)}`;
  return ref.width === TILE_WIDTH ? base : `${base}.p/${ref.width}`;
}

/** Parses the part after `tile/`; undefined when it is not a canonical tile path. */
export function parseTilePath(rest: string): TileRef | undefined {
  const m = /^(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*[0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/u.exec(rest);
  if (!m?.[1] || !m[2]) return undefined;
  const level = m[1] === 'entries' ? 'entries' : Number(m[1]);
  if (typeof level === 'number' && level > 63) return undefined;
  const groups = m[2].split('/');
  if (groups.length > 1 && groups[0] === 'x000') return undefined;
  const index = Number(groups.map((g) => g.replace('x', '')).join(''));
  const width = m[3] ? Number(m[3]) : TILE_WIDTH;
  if (!Number.isSafeInteger(index) || width < 1 || width > TILE_WIDTH) return undefined;
  return { level, index, width };
}

/** How many complete nodes a tree of `size` leaves has at tree level `level`. */
export function nodesAtLevel(size: number, level: number): number {
  return Math.floor(size / 2 ** level);
}

/** Whether the tile exists in a tree of `size` (a partial tile only while it is the level's last). */
export function tileExists(ref: TileRef, size: number): boolean {
  const count = ref.level === 'entries' ? size : nodesAtLevel(size, ref.level * TILE_HEIGHT);
  const available = count - ref.index * TILE_WIDTH;
  if (available <= 0) return false;
  return available >= ref.width;
}

/** A hash tile's bytes: the width hashes at tree level 8L starting at node N·256. */
export function hashTile(read: NodeReader, level: number, index: number, width: number): Buffer {
  const out = Buffer.allocUnsafe(width * HASH_SIZE);
  for (let i = 0; i < width; i++) read(level * TILE_HEIGHT, index * TILE_WIDTH + i).copy(out, i * HASH_SIZE);
  return out;
}

export function entryBundle(entries: readonly Uint8Array[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_BYTES) throw new RangeError('entry too long for a bundle');
    const len = Buffer.allocUnsafe(2);
    len.writeUInt16BE(entry.length);
    parts.push(len, Buffer.from(entry));
  }
  return Buffer.concat(parts);
}

export function parseEntryBundle(bundle: Uint8Array): Buffer[] {
  const buf = Buffer.from(bundle);
  const out: Buffer[] = [];
  for (let at = 0; at < buf.length;) {
    if (at + 2 > buf.length) throw new Error('truncated entry bundle');
    const len = buf.readUInt16BE(at);
    if (at + 2 + len > buf.length) throw new Error('truncated entry bundle');
    out.push(buf.subarray(at + 2, at + 2 + len));
    at += 2 + len;
  }
  return out;
}
