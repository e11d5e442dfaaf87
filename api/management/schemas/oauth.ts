/** OAuth applications registered by the account, and the consents (grants) its people gave. */
import { Id, Timestamp, z } from './common.js';

export const OAuthAppView = z
  .object({ clientId: Id, name: z.string(), redirectUris: z.array(z.string()), public: z.boolean(), createdAt: Timestamp })
  .openapi('MgmtOAuthApp');
export const OAuthAppListResponse = z.object({ apps: z.array(OAuthAppView) }).openapi('MgmtOAuthAppList');
export const OAuthAppParams = z.object({ accountId: Id, clientId: Id });

export const RegisterOAuthAppRequest = z
  .object({
    name: z.string().min(1).max(100),
    redirectUris: z.array(z.string().max(2000)).min(1).max(10),
    /** A public client (native or browser app) has no secret and must use PKCE. */
    public: z.boolean().default(false),
  })
  .openapi('MgmtRegisterOAuthAppRequest');
/** Shown once: the client secret (null for a public client). */
export const RegisteredOAuthAppResponse = z
  .object({ app: OAuthAppView, clientSecret: z.string().nullable() })
  .openapi('MgmtRegisteredOAuthApp');

export const UpdateOAuthAppRequest = z
  .object({ name: z.string().min(1).max(100).optional(), redirectUris: z.array(z.string().max(2000)).min(1).max(10).optional() })
  .openapi('MgmtUpdateOAuthAppRequest');
export const RotatedSecretResponse = z.object({ clientSecret: z.string() }).openapi('MgmtRotatedSecret');

export const GrantView = z
  .object({
    id: Id,
    clientId: Id,
    appName: z.string(),
    scopes: z.array(z.string()),
    consentedBy: z.object({ userId: Id, email: z.string() }),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
  })
  .openapi('MgmtGrant');
export const GrantListResponse = z.object({ grants: z.array(GrantView) }).openapi('MgmtGrantList');
export const GrantParams = z.object({ accountId: Id, grantId: Id });

export type OAuthAppView = z.infer<typeof OAuthAppView>;
export type OAuthAppListResponse = z.infer<typeof OAuthAppListResponse>;
export type RegisterOAuthAppRequest = z.infer<typeof RegisterOAuthAppRequest>;
export type RegisteredOAuthAppResponse = z.infer<typeof RegisteredOAuthAppResponse>;
export type UpdateOAuthAppRequest = z.infer<typeof UpdateOAuthAppRequest>;
export type RotatedSecretResponse = z.infer<typeof RotatedSecretResponse>;
export type GrantView = z.infer<typeof GrantView>;
export type GrantListResponse = z.infer<typeof GrantListResponse>;
