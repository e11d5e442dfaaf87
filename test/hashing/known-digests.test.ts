/**
 * The known answers in test/helpers/digests.ts, which many suites compare the service against, held
 * against their sources: RFC 3874 §3, the NIST CAVP file, and node:crypto.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SHA224_ABC, SHA224_EMPTY, SHA224_TWO_BLOCK, sha224Base64, sha224Bytes, sha224Hex, TWO_BLOCK_MESSAGE } from '../helpers/digests.js';
import { loadShaVectors } from '../helpers/vectors.js';

describe('known SHA-224 answers', () => {
  it('RFC 3874 §3.1 and §3.2, written there in 32-bit words', () => {
    expect(SHA224_ABC).toBe('23097d22 3405d822 8642a477 bda255b3 2aadbce4 bda0b3f7 e36c9da7'.replaceAll(' ', ''));
    expect(SHA224_TWO_BLOCK).toBe('75388b16 512776cc 5dba5da1 fd890150 b0c6455c b4f58b19 52522525'.replaceAll(' ', ''));
    expect(TWO_BLOCK_MESSAGE).toHaveLength(56);
  });

  it('the empty message is SHA224ShortMsg.rsp, Len = 0', () => {
    const empty = loadShaVectors('SHA224ShortMsg.rsp').find((v) => v.len === 0);
    expect(empty?.md).toBe(SHA224_EMPTY);
  });

  it('node:crypto agrees with each', () => {
    const reference = (data: string) => createHash('sha224').update(data).digest('hex');
    expect(reference('abc')).toBe(SHA224_ABC);
    expect(reference('')).toBe(SHA224_EMPTY);
    expect(reference(TWO_BLOCK_MESSAGE)).toBe(SHA224_TWO_BLOCK);
  });
});

describe('sha224Hex, sha224Base64, sha224Bytes', () => {
  it('take a string as UTF-8 and bytes as they are', () => {
    expect(sha224Hex('abc')).toBe(SHA224_ABC);
    expect(sha224Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(SHA224_ABC);
    expect(sha224Hex('')).toBe(SHA224_EMPTY);
    expect(sha224Hex('é')).toBe(sha224Hex(Buffer.from([0xc3, 0xa9])));
  });

  it('give one digest in three forms', () => {
    const bytes = sha224Bytes(TWO_BLOCK_MESSAGE);
    expect(bytes).toHaveLength(28);
    expect(bytes.toString('hex')).toBe(SHA224_TWO_BLOCK);
    expect(sha224Base64(TWO_BLOCK_MESSAGE)).toBe(Buffer.from(SHA224_TWO_BLOCK, 'hex').toString('base64'));
  });
});
