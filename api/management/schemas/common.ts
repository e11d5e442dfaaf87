/**
 * Shared pieces of the management API's schemas (the JSON API the dashboard calls). The schemas are
 * the one source of validation and, once the routes are mounted, of their OpenAPI entries; every
 * component is named `Mgmt…` so none collides with the hashing API's.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ROLES } from '../../../shared/store/dashboard-types.js';
import { KEY_TYPES, PLANS } from '../../../shared/store/types.js';

extendZodWithOpenApi(z);

export { z };

/** ISO 8601 with milliseconds, UTC. */
export const Timestamp = z.iso.datetime().openapi({ example: '2030-01-02T03:04:05.678Z' });
export const Role = z.enum(ROLES).openapi('MgmtRole');
export const KeyType = z.enum(KEY_TYPES).openapi('MgmtKeyType');
export const Plan = z.enum(PLANS).openapi('MgmtPlan');
/** An account or object id in a path. */
export const Id = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/);

/** Path parameters of every account-scoped operation. */
export const AccountParams = z.object({ accountId: Id });

/** The error body (the v2 envelope: one shape for every API generation of this service). */
export const MgmtError = z
  .object({ success: z.literal(false), error: z.object({ code: z.string(), message: z.string(), details: z.string().optional() }) })
  .openapi('MgmtError');

/** A list of IP addresses and CIDR ranges as sent; shared/keys/ip-allowlist.ts validates each entry. */
export const AllowedIps = z.array(z.string().max(64)).max(100);

/** A response with nothing to say beyond success (204 would do, but a body keeps clients uniform). */
export const Ok = z.object({ ok: z.literal(true) }).openapi('MgmtOk');
export type Ok = z.infer<typeof Ok>;
export const OK: Ok = { ok: true };
