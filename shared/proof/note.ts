/**
 * C2SP signed-note with Ed25519: key names, key ids, the verifier key string
 * (`<name>+<hex key id>+<base64(0x01 ‖ public key)>`), signing and verifying a note. Only node:crypto,
 * so the SDK's offline verifier can run the same code.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

const ED25519_TYPE = 0x01;
const EM_DASH_PREFIX = '\u2014 ';
/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
/** DER prefix of an Ed25519 PKCS#8 private key; the 32-byte seed follows. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A name is non-empty, has no whitespace and no '+' (C2SP signed-note). */
export function validKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

/** First 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key). */
export function keyId(name: string, publicKey: Uint8Array): Buffer {
  return createHash('sha256')
    .update(name, 'utf8')
    .update(Buffer.from([0x0a, ED25519_TYPE]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
}

export function rawPublicKey(key: KeyObject): Buffer {
  const der = key.export({ type: 'spki', format: 'der' });
  return Buffer.from(der.subarray(der.length - 32));
}

export function publicKeyFromRaw(raw: Uint8Array): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export function seedOf(key: KeyObject): Buffer {
  const der = key.export({ type: 'pkcs8', format: 'der' });
  return Buffer.from(der.subarray(der.length - 32));
}

export interface NoteVerifier {
  readonly name: string;
  readonly keyId: Buffer;
  readonly publicKey: KeyObject;
}

export function verifierKeyString(name: string, publicKey: Uint8Array): string {
  const id = keyId(name, publicKey).toString('hex');
  return `${name}+${id}+${Buffer.concat([Buffer.from([ED25519_TYPE]), publicKey]).toString('base64')}`;
}

/** Parses `<name>+<hex key id>+<base64(0x01 ‖ key)>`; throws on any mismatch, including a wrong key id. */
export function parseVerifierKey(text: string): NoteVerifier {
  // The base64 part may itself contain '+', so the name and id are matched first.
  const [, name, idHex, keyB64] = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/u.exec(text.trim()) ?? [];
  if (!name || !idHex || !keyB64 || !validKeyName(name)) {
    throw new Error('not a note verifier key (<name>+<hex key id>+<base64 key>)');
  }
  const key = Buffer.from(keyB64, 'base64');
  if (key.length !== 33 || key[0] !== ED25519_TYPE || key.toString('base64') !== keyB64) {
    throw new Error('the verifier key is not an Ed25519 key');
  }
  const raw = key.subarray(1);
  const id = keyId(name, raw);
  if (id.toString('hex') !== idHex) throw new Error('the verifier key id does not match its name and key');
  return { name, keyId: id, publicKey: publicKeyFromRaw(raw) };
}

/** Key ids of signing keys by name: a checkpoint is signed per batch, and deriving the id exports the key. */
const signerIds = new WeakMap<KeyObject, Map<string, Buffer>>();

function signerKeyId(name: string, privateKey: KeyObject): Buffer {
  let byName = signerIds.get(privateKey);
  if (!byName) signerIds.set(privateKey, (byName = new Map<string, Buffer>()));
  let id = byName.get(name);
  if (!id) byName.set(name, (id = keyId(name, rawPublicKey(createPublicKey(privateKey)))));
  return id;
}

/** Signs `text` (which must end in a newline) under `name`: the text, a blank line, one signature line. */
export function signNote(text: string, name: string, privateKey: KeyObject): string {
  if (!text.endsWith('\n') || text.includes('\n\n')) throw new Error('note text must end in a newline and have no blank line');
  const signature = sign(null, Buffer.from(text, 'utf8'), privateKey);
  const id = signerKeyId(name, privateKey);
  return `${text}\n${EM_DASH_PREFIX}${name} ${Buffer.concat([id, signature]).toString('base64')}\n`;
}

/**
 * Verifies a signed note against one verifier: returns the note text when a signature line for that
 * name and key id verifies, else throws. Lines by other keys are ignored, as the format allows.
 */
export function openNote(note: string, verifier: NoteVerifier): string {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new Error('malformed signed note');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  let verified = false;
  for (const line of lines) {
    if (!line.startsWith(EM_DASH_PREFIX)) throw new Error('malformed signature line');
    const [name, b64, extra] = line.slice(EM_DASH_PREFIX.length).split(' ');
    if (!name || !b64 || extra !== undefined) throw new Error('malformed signature line');
    const sig = Buffer.from(b64, 'base64');
    if (name !== verifier.name || sig.length < 4 || !sig.subarray(0, 4).equals(verifier.keyId)) continue;
    if (sig.length !== 68 || !verify(null, Buffer.from(text, 'utf8'), verifier.publicKey, sig.subarray(4))) {
      throw new Error('the note signature does not verify');
    }
    verified = true;
  }
  if (!verified) throw new Error(`the note carries no signature by ${verifier.name}`);
  return text;
}
