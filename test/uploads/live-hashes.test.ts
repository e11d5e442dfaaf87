/**
 * shared/uploads/live-hashes.ts: an upload's node:crypto hash kept between PATCHes is handed out
 * only at the offset it covers, as a copy (a failed PATCH leaves the kept one intact), and the
 * least recently used go first beyond the capacity, except the sole copies of bytes not stored,
 * which stay until their time. Digests are node:crypto's over the same bytes.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LiveHashes } from '../../shared/uploads/live-hashes.js';
import { sha224Hex } from '../helpers/digests.js';

describe('LiveHashes', () => {
  const a = randomBytes(1000);
  const b = randomBytes(777);

  it('gives a fresh hash at offset 0 and the kept one only at the offset it covers', () => {
    const hashes = new LiveHashes();
    const first = hashes.resume('u', 0)!;
    first.update(a);
    expect(first.save()).toBeUndefined();
    hashes.keep('u', a.length, first);
    expect(hashes.resume('u', a.length - 1)).toBeUndefined();
    expect(hashes.resume('other', a.length)).toBeUndefined();
    const second = hashes.resume('u', a.length)!;
    second.update(b);
    expect(second.digestHex()).toBe(sha224Hex(Buffer.concat([a, b])));
  });

  it('hands out copies: a PATCH that fails leaves the kept hash as it was', () => {
    const hashes = new LiveHashes();
    const first = hashes.resume('u', 0)!;
    first.update(a);
    hashes.keep('u', a.length, first);
    hashes.resume('u', a.length)!.update(randomBytes(64)); // a PATCH whose bytes were never committed
    const retry = hashes.resume('u', a.length)!;
    retry.update(b);
    expect(retry.digestHex()).toBe(sha224Hex(Buffer.concat([a, b])));
  });

  it('drops an upload, and the least recently kept beyond its capacity', () => {
    const hashes = new LiveHashes(2);
    for (const id of ['x', 'y', 'z']) hashes.keep(id, 1, hashes.resume(id, 0)!);
    expect(hashes.size).toBe(2);
    expect(hashes.resume('x', 1)).toBeUndefined();
    expect(hashes.resume('z', 1)).toBeDefined();
    hashes.drop('z');
    expect(hashes.resume('z', 1)).toBeUndefined();
  });

  it('keeps a sole copy (bytes not stored) beyond the capacity, until its time, then forgets it', () => {
    let now = 1000;
    const hashes = new LiveHashes(1, () => now);
    const sole = hashes.resume('s', 0)!;
    sole.update(a);
    hashes.keep('s', a.length, sole, 5000);
    for (const id of ['x', 'y']) hashes.keep(id, 1, hashes.resume(id, 0)!);
    expect(hashes.size).toBe(2);
    expect(hashes.resume('x', 1)).toBeUndefined();
    const next = hashes.resume('s', a.length)!;
    next.update(b);
    expect(next.digestHex()).toBe(sha224Hex(Buffer.concat([a, b])));
    // Abandoned: once its time has passed, the next sole copy kept forgets it.
    now = 5000;
    hashes.keep('t', 1, hashes.resume('t', 0)!, 9000);
    expect(hashes.resume('s', a.length)).toBeUndefined();
    expect(hashes.resume('t', 1)).toBeDefined();
    expect(hashes.size).toBe(2);
  });
});
