/** A service's verify-on-ingest refusal: the bytes do not have the expected SHA-224. */
import { Sha224dError } from '../errors.js';

export function isHashMismatch(err: unknown): err is Sha224dError {
  return err instanceof Sha224dError && err.code === 'HASH_MISMATCH';
}
