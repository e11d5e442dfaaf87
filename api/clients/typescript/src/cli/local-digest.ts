/**
 * The one place the CLI's --local mode reaches the client-side SHA-224 library (README "Client-side
 * SHA-224 library"). The library's home may move; only this import changes with it.
 */
import { SHA224, SHA224Class } from '../../../browser/src/sha224.js';

export interface LocalHasher {
  update(bytes: Uint8Array): void;
  /** Lowercase hex. */
  digest(): string;
}

export function localHasher(): LocalHasher {
  const context = new SHA224Class();
  return {
    update: (bytes) => void context.update(bytes),
    digest: () => context.digest('hex'),
  };
}

export function localHash(message: Uint8Array, output: 'hex' | 'base64' = 'hex'): string {
  return SHA224.hash(message, output);
}

export function localHmac(key: Uint8Array, message: Uint8Array, output: 'hex' | 'base64' = 'hex'): string {
  return SHA224.hmac(key, message, output);
}
