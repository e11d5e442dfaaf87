/**
 * Webhook signing secrets: made, parsed, and sealed at rest.
 *
 * Unlike API keys, a signing secret must be read back (every delivery is signed with it), so it
 * cannot be stored as a hash. It is sealed with AES-256-GCM under SECRETS_KEY instead; the
 * endpoint's id is the additional authenticated data, so a sealed secret copied onto another
 * endpoint's row does not open. SECRETS_KEY_PREVIOUS opens what the previous key sealed, so the
 * operator can rotate the key without re-sealing every row at once (docs/webhooks.md "Secrets").
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** Bytes of randomness in a secret we make; the Standard Webhooks range we accept is 24–64. */
const SECRET_BYTES = 32;
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

/** A new `whsec_<base64 of 32 random bytes>` secret. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;

/** The HMAC key a secret stands for (the base64 part decoded); throws on a malformed secret. */
export function secretKeyBytes(secret: string): Buffer {
  const body = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!BASE64_RE.test(body) || body.length % 4 !== 0) throw new Error('webhook secret is not whsec_ + standard base64');
  const key = Buffer.from(body, 'base64');
  if (key.length < MIN_KEY_BYTES || key.length > MAX_KEY_BYTES)
    throw new Error(`webhook secret must decode to ${MIN_KEY_BYTES}-${MAX_KEY_BYTES} bytes`);
  return key;
}

/** The 32-byte AES key from its configured form: 64 hex digits or base64 of 32 bytes. */
export function parseSecretsKey(value: string): Buffer {
  const trimmed = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes (64 hex digits or base64)');
  return key;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals with the current key and opens with the current or the previous one. */
export class SecretBox {
  constructor(
    private readonly current: Buffer,
    private readonly previous: Buffer | undefined = undefined,
  ) {
    if (current.length !== 32 || (previous !== undefined && previous.length !== 32)) throw new RangeError('AES-256 keys are 32 bytes');
  }

  /** `v1.<base64 iv|ciphertext|tag>`; `context` (the endpoint id) is bound as associated data. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64')}`;
  }

  open(sealed: string, context: string): string {
    const [version, data] = sealed.split('.', 2);
    if (version !== VERSION || data === undefined) throw new Error('sealed secret: unknown format');
    const raw = Buffer.from(data, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret: too short');
    for (const key of this.previous === undefined ? [this.current] : [this.current, this.previous]) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        // Sealed under the other key (or tampered with): try the next, fail below.
      }
    }
    // No detail: which key or why would help nobody but an attacker.
    throw new Error('sealed secret: cannot be opened with SECRETS_KEY or SECRETS_KEY_PREVIOUS');
  }
}
