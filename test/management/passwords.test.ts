/** Password hashing: format, scrypt known answers (RFC 7914 §12), cross-checks with node:crypto, refusals. */
import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  dummyPasswordHash,
  hashPassword,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  needsRehash,
  validateNewPassword,
  verifyPassword,
} from '../../api/sessions/passwords.js';
import { ServiceError } from '../../shared/errors.js';

const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
/** RFC 7914 §12, the N = 16384 vector. */
const RFC_VECTOR = {
  password: 'pleaseletmein',
  salt: 'SodiumChloride',
  hex: '7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887',
};

describe('passwords', () => {
  it('hashes with the recorded parameters N=2^15, r=8, p=1, a 16-byte salt and a 32-byte key', async () => {
    const hash = await hashPassword('correct horse battery staple');
    const m = /^\$scrypt\$ln=15,r=8,p=1\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(hash);
    expect(m).not.toBeNull();
    const salt = Buffer.from(m![1]!, 'base64');
    expect(salt).toHaveLength(16);
    // Cross-check: node:crypto's scrypt with the same salt and parameters gives the stored key.
    const expected = scryptSync('correct horse battery staple', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    expect(m![2]).toBe(b64(expected));
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash); // a fresh salt each time
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it('verifies the RFC 7914 known answer stored with its own parameters, and flags it for re-hashing', async () => {
    const stored = `$scrypt$ln=14,r=8,p=1$${b64(Buffer.from(RFC_VECTOR.salt))}$${b64(Buffer.from(RFC_VECTOR.hex, 'hex'))}`;
    expect(await verifyPassword(RFC_VECTOR.password, stored)).toBe(true);
    expect(await verifyPassword('pleaseletmeout', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it('normalises to NFKC, so composed and decomposed forms of one password verify', async () => {
    const composed = 'Caf\u00e9 au lait, please!';
    const decomposed = 'Cafe\u0301 au lait, please!';
    const hash = await hashPassword(composed);
    expect(await verifyPassword(decomposed, hash)).toBe(true);
  });

  it('reads an unreadable or out-of-bounds hash as "no match", never as an error', async () => {
    for (const bad of [
      '',
      'plain text',
      '$scrypt$ln=15,r=8,p=1$short$AAAA',
      `$scrypt$ln=30,r=8,p=1$${b64(Buffer.alloc(16))}$${b64(Buffer.alloc(32))}`, // 2^30 would need 1 GiB
      `$scrypt$ln=15,r=64,p=1$${b64(Buffer.alloc(16))}$${b64(Buffer.alloc(32))}`,
      `$argon2id$v=19$m=65536,t=3,p=4$${b64(Buffer.alloc(16))}$${b64(Buffer.alloc(32))}`,
    ]) {
      expect(await verifyPassword('anything at all', bad), bad).toBe(false);
      expect(needsRehash(bad), bad).toBe(true);
    }
  });

  it('has a dummy hash (made once) that no guess matches', async () => {
    const dummy = await dummyPasswordHash();
    expect(await dummyPasswordHash()).toBe(dummy);
    expect(await verifyPassword('password123456', dummy)).toBe(false);
  });

  it('accepts 12 to 256 characters and refuses anything else, naming the field', () => {
    expect(validateNewPassword('a'.repeat(MIN_PASSWORD_LENGTH))).toHaveLength(12);
    expect(validateNewPassword('🔑'.repeat(MAX_PASSWORD_LENGTH))).toHaveLength(512); // counted in characters, not UTF-16 units
    for (const [bad, message] of [
      ['a'.repeat(11), 'at least 12'],
      ['a'.repeat(257), 'at most 256'],
      [' '.repeat(20), 'only spaces'],
      [42, 'Give a password'],
    ] as const) {
      try {
        validateNewPassword(bad, 'newPassword');
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(ServiceError);
        expect((err as ServiceError).code).toBe('INVALID_INPUT');
        expect((err as ServiceError).details).toBe('field: newPassword');
        expect((err as ServiceError).message).toContain(message);
      }
    }
  });
});
