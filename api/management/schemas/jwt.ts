/** An Enterprise account's JWT verification keys: public keys only (ES256, EdDSA), each under its kid. */
import { Id, Timestamp, z } from './common.js';

export const JwtKeyView = z
  .object({
    kid: z.string(),
    alg: z.enum(['ES256', 'EdDSA']),
    source: z.enum(['pem', 'jwk', 'jwks']),
    publicJwk: z.record(z.string(), z.string()),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
  })
  .openapi('MgmtJwtKey');

export const JwtKeyListResponse = z
  .object({
    keys: z.array(JwtKeyView),
    /** What tokens must carry: `iss` = this account's id, `aud` = this value, `kid` = one of the keys. */
    issuer: z.string(),
    audience: z.string(),
  })
  .openapi('MgmtJwtKeyList');
export const JwtKeyParams = z.object({ accountId: Id, kid: z.string().min(1).max(100) });

export const AddJwtKeysRequest = z
  .object({
    format: z.enum(['pem', 'jwk', 'jwks']),
    material: z.string().min(1).max(20_000),
    kid: z.string().min(1).max(100).optional(),
  })
  .openapi('MgmtAddJwtKeysRequest');

export type JwtKeyView = z.infer<typeof JwtKeyView>;
export type JwtKeyListResponse = z.infer<typeof JwtKeyListResponse>;
export type AddJwtKeysRequest = z.infer<typeof AddJwtKeysRequest>;
