/**
 * Password hashing with scrypt from node:crypto (RFC 7914): N = 2^15, r = 8, p = 1, 32-byte output,
 * 16-byte random salt, `maxmem` 64 MiB (N·r·128 = 32 MiB is needed; Node's default cap of 32 MiB
 * is exactly that and refuses). Parameters are recorded in every hash (PHC-style string
 * `$scrypt$ln=15,r=8,p=1$<salt>$<hash>`, base64 without padding), so they can be raised later and
 * old hashes still verify; `needsRehash` says when a hash should be replaced at the next sign-in.
 *
 * Passwords are NFKC-normalised before hashing (NIST SP 800-63B §5.1.1.2), so the same password
 * typed on two keyboards that compose characters differently verifies.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { invalidInput } from '../../shared/errors.js';

export const SCRYPT_PARAMS = { ln: 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
const MAXMEM = 64 * 1024 * 1024;
/** Bounds on parameters read back from a stored hash, so a corrupted row cannot ask for gigabytes. */
const LIMITS = { ln: [10, 20], r: [1, 32], p: [1, 16] } as const;
const HASH_RE = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,64})\$([A-Za-z0-9+/]{32,128})$/;

export const MIN_PASSWORD_LENGTH = 12;
/** Characters; beyond it a password is almost certainly a paste error, and scrypt's input stays bounded. */
export const MAX_PASSWORD_LENGTH = 256;

function derive(password: string, salt: Buffer, ln: number, r: number, p: number, length: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** ln, r, p, maxmem: MAXMEM };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Refuses a password the service will not store: too short, too long, or only spaces. */
export function validateNewPassword(password: unknown, field = 'password'): string {
  if (typeof password !== 'string') throw invalidInput(field, 'Give a password');
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) throw invalidInput(field, `A password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  if (length > MAX_PASSWORD_LENGTH) throw invalidInput(field, `A password has at most ${MAX_PASSWORD_LENGTH} characters`);
  if (password.trim() === '') throw invalidInput(field, 'A password cannot be only spaces');
  return password;
}

export async function hashPassword(password: string): Promise<string> {
  const { ln, r, p } = SCRYPT_PARAMS;
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, ln, r, p, KEY_LENGTH);
  return `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(key)}`;
}

interface ParsedHash {
  ln: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | undefined {
  const m = HASH_RE.exec(stored);
  if (!m) return undefined;
  const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const within = (v: number, [lo, hi]: readonly [number, number]) => v >= lo && v <= hi;
  if (!within(ln, LIMITS.ln) || !within(r, LIMITS.r) || !within(p, LIMITS.p)) return undefined;
  return { ln, r, p, salt: Buffer.from(m[4]!, 'base64'), key: Buffer.from(m[5]!, 'base64') };
}

/** True when `password` matches `stored`; false for a wrong password or an unreadable hash. Constant-time compare. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.ln, parsed.r, parsed.p, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/** Whether the hash was made with other parameters than today's (re-hash it at the next successful sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.ln !== SCRYPT_PARAMS.ln || parsed.r !== SCRYPT_PARAMS.r || parsed.p !== SCRYPT_PARAMS.p;
}

let dummy: Promise<string> | undefined;

/**
 * A hash of a random password, made once per process. Signing in with an unknown email verifies
 * against it, so the answer takes as long as a wrong password for a real person and reveals
 * nothing about which emails exist.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(24).toString('base64'));
  return dummy;
}

function b64(buf: Buffer): string {
  return buf.toString('base64').replace(/=+$/, '');
}
