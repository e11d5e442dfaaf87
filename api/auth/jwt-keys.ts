/**
 * Reading the JWT verification material an Enterprise account pastes into the dashboard: a PEM
 * public key, a JWK, or a JWKS document (no outbound fetch: the document is pasted, so the service
 * never dials an address a customer chose). Only public keys of two algorithms are accepted —
 * ES256 (EC P-256) and EdDSA (Ed25519) — and each is kept as a minimal public JWK under its `kid`.
 *
 * Per-account HS256 secrets are not offered (docs/decisions.md "Dashboard and accounts"): verifying
 * them needs the secret in clear on every API node, and this service keeps secrets only as hashes.
 * A private key pasted by mistake is refused and never stored.
 */
import { createPublicKey, type JsonWebKey as NodeJwk } from 'node:crypto';
import { invalidInput } from '../../shared/errors.js';
import type { JwtKeyAlgorithm, JwtKeySource, NewAccountJwtKey, PublicJwk } from '../../shared/store/dashboard-types.js';

export const MAX_JWKS_KEYS = 10;
const MAX_MATERIAL_LENGTH = 20_000;
const KID_RE = /^[\x21-\x7e]{1,100}$/;
const B64URL_RE = /^[A-Za-z0-9_-]+$/;

export interface PastedMaterial {
  format: JwtKeySource;
  material: string;
  /** Required for a PEM; for a JWK, the key's own `kid` is used when this is absent. */
  kid?: string | undefined;
}

const FIELD = 'material';

export function parseJwtKeyMaterial(input: PastedMaterial): NewAccountJwtKey[] {
  if (input.material.length > MAX_MATERIAL_LENGTH) throw invalidInput(FIELD, 'The key material is too long');
  switch (input.format) {
    case 'pem':
      return [fromPem(input.material, input.kid)];
    case 'jwk':
      return [fromJwk(parseJson(input.material), input.kid, 'jwk')];
    case 'jwks':
      return fromJwks(parseJson(input.material));
  }
}

function fromPem(pem: string, kid: string | undefined): NewAccountJwtKey {
  if (/PRIVATE KEY/.test(pem)) throw privateKeyRefused();
  if (!/-----BEGIN PUBLIC KEY-----/.test(pem)) throw invalidInput(FIELD, 'Paste a PEM public key (-----BEGIN PUBLIC KEY-----)');
  let jwk: NodeJwk;
  try {
    jwk = createPublicKey({ key: pem, format: 'pem' }).export({ format: 'jwk' });
  } catch {
    throw invalidInput(FIELD, 'The PEM could not be read as a public key');
  }
  return fromJwk(jwk, kid, 'pem');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidInput(FIELD, 'The key material is not valid JSON');
  }
}

function fromJwks(doc: unknown): NewAccountJwtKey[] {
  const keys = isRecord(doc) ? doc.keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) throw invalidInput(FIELD, 'A JWKS document is {"keys": [ … ]} with at least one key');
  if (keys.length > MAX_JWKS_KEYS) throw invalidInput(FIELD, `A JWKS document may hold at most ${MAX_JWKS_KEYS} keys`);
  const out = keys.map((k) => fromJwk(k, undefined, 'jwks'));
  if (new Set(out.map((k) => k.kid)).size !== out.length) throw invalidInput(FIELD, 'Each key of the JWKS needs its own kid');
  return out;
}

function fromJwk(value: unknown, kidOverride: string | undefined, source: JwtKeySource): NewAccountJwtKey {
  if (!isRecord(value)) throw invalidInput(FIELD, 'A JWK is a JSON object');
  if ('d' in value || 'p' in value || 'k' in value) throw privateKeyRefused();
  const kid = kidOverride ?? (typeof value.kid === 'string' ? value.kid : undefined);
  if (kid === undefined || !KID_RE.test(kid)) throw invalidInput('kid', 'Each key needs a kid: 1 to 100 printable characters');
  if (value.use !== undefined && value.use !== 'sig') throw invalidInput(FIELD, `Key ${kid}: "use" must be "sig"`);

  let alg: JwtKeyAlgorithm;
  let publicJwk: PublicJwk;
  if (value.kty === 'EC' && value.crv === 'P-256' && isB64url(value.x, 43) && isB64url(value.y, 43)) {
    alg = 'ES256';
    publicJwk = { kty: 'EC', crv: 'P-256', x: value.x, y: value.y };
  } else if (value.kty === 'OKP' && value.crv === 'Ed25519' && isB64url(value.x, 43)) {
    alg = 'EdDSA';
    publicJwk = { kty: 'OKP', crv: 'Ed25519', x: value.x };
  } else {
    throw invalidInput(FIELD, `Key ${kid}: only EC P-256 (ES256) and Ed25519 (EdDSA) public keys are accepted`);
  }
  if (value.alg !== undefined && value.alg !== alg) throw invalidInput(FIELD, `Key ${kid}: "alg" must be ${alg} for this key`);
  try {
    // Proves the point is on the curve (a malformed key is refused here, not at the first token).
    createPublicKey({ key: { ...publicJwk }, format: 'jwk' });
  } catch {
    throw invalidInput(FIELD, `Key ${kid}: not a valid public key`);
  }
  return { kid, alg, publicJwk, source };
}

function privateKeyRefused() {
  return invalidInput(FIELD, 'This is a private key: paste only the public key (and treat this private key as exposed if it was shared)');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isB64url(value: unknown, length: number): value is string {
  return typeof value === 'string' && value.length === length && B64URL_RE.test(value);
}
