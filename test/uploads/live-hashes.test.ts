/**
 * shared/uploads/live-hashes.ts: an upload's node:crypto hash kept between PATCHes is handed out
 * only at the offset it covers, as a copy (a failed PATCH leaves the kept one intact), and the
 * least recently used go first beyond the capacity. Digests are node:crypto's over the same bytes.
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
});
