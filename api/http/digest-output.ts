import type { OutputFormat } from '../../shared/hashing/encoding.js';
import { encodeDigest } from '../../shared/hashing/encoding.js';

/**
 * A hex digest in the caller's output format, with the `encoding` field every generation reports
 * beside it: `binary` is returned base64-encoded (JSON cannot carry raw bytes), so its encoding
 * is 'base64'.
 */
export function encoded(digestHex: string, output: OutputFormat): { hash: string; encoding: 'hex' | 'base64' } {
  if (output === 'hex') return { hash: digestHex, encoding: 'hex' };
  return { hash: encodeDigest(Buffer.from(digestHex, 'hex'), output), encoding: 'base64' };
}
