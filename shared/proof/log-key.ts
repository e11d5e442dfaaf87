/**
 * The log's Ed25519 signing key: parsed from configuration (PKCS#8 PEM, base64 of the 32-byte seed,
 * or a note signer key `PRIVATE+KEY+<name>+<hex id>+<base64(0x01 ‖ seed)>`), or generated at first
 * start in embedded mode into DATA_DIR (mode 0600) — never in the database. The account tags of
 * leaves are keyed by a value derived from it, so the log needs no second secret.
 */
import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { keyId, privateKeyFromSeed, rawPublicKey, seedOf, validKeyName, verifierKeyString } from './note.js';

export const LOG_KEY_FILE = 'log-signing-key.pem';

export interface LogKey {
  /** The log's origin, also its note key name. */
  readonly origin: string;
  readonly privateKey: KeyObject;
  readonly publicKey: Buffer;
  /** `<origin>+<hex key id>+<base64 key>`: what verifiers are given. */
  readonly verifierKey: string;
  /** HMAC key for account tags (shared/proof/leaf.ts). */
  readonly accountKey: Buffer;
}

export function logKeyOf(origin: string, privateKey: KeyObject): LogKey {
  if (!validKeyName(origin)) throw new Error('LOG_ORIGIN must be non-empty with no spaces or "+"');
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('LOG_SIGNING_KEY must be an Ed25519 key');
  const publicKey = rawPublicKey(createPublicKey(privateKey));
  const accountKey = createHmac('sha256', seedOf(privateKey)).update('sha224d log account tag').digest();
  return { origin, privateKey, publicKey, verifierKey: verifierKeyString(origin, publicKey), accountKey };
}

/** Parses LOG_SIGNING_KEY in any of the three accepted forms. */
export function parseSigningKey(text: string): KeyObject {
  const value = text.trim();
  if (value.startsWith('-----BEGIN')) return createPrivateKey(value);
  if (value.startsWith('PRIVATE+KEY+')) {
    const [, name, idHex, b64] = /^PRIVATE\+KEY\+([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/u.exec(value) ?? [];
    const raw = Buffer.from(b64 ?? '', 'base64');
    if (!name || raw.length !== 33 || raw[0] !== 0x01) throw new Error('LOG_SIGNING_KEY: malformed note signer key');
    const key = privateKeyFromSeed(raw.subarray(1));
    if (keyId(name, rawPublicKey(createPublicKey(key))).toString('hex') !== idHex) {
      throw new Error('LOG_SIGNING_KEY: the key id does not match');
    }
    return key;
  }
  const seed = Buffer.from(value, 'base64');
  if (seed.length !== 32) throw new Error('LOG_SIGNING_KEY must be a PEM, a base64 32-byte seed or a note signer key');
  return privateKeyFromSeed(seed);
}

/**
 * The configured key, else (embedded mode) the one in DATA_DIR, made at first start. `created` says
 * whether it was made now, so the caller prints the verifier key once.
 */
export async function loadOrCreateLogKey(opts: {
  origin: string;
  configured: string | undefined;
  dataDir: string;
  mayCreate: boolean;
}): Promise<{ key: LogKey; created: boolean }> {
  if (opts.configured) return { key: logKeyOf(opts.origin, parseSigningKey(opts.configured)), created: false };
  const file = path.join(opts.dataDir, LOG_KEY_FILE);
  try {
    return { key: logKeyOf(opts.origin, parseSigningKey(await readFile(file, 'utf8'))), created: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (!opts.mayCreate) throw new Error('LOG_SIGNING_KEY is required in distributed mode');
  const { privateKey } = generateKeyPairSync('ed25519');
  await mkdir(opts.dataDir, { recursive: true });
  try {
    // 'wx': two processes starting at once never overwrite each other's key.
    await writeFile(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return { key: logKeyOf(opts.origin, parseSigningKey(await readFile(file, 'utf8'))), created: false };
  }
  return { key: logKeyOf(opts.origin, privateKey), created: true };
}
