/** Requests per day, by generation and by credential, for the usage page, its table and its CSV. */
import { Timestamp, z } from './common.js';

export const USAGE_MAX_DAYS = 90;
export const GENERATION_GROUPS = ['v1', 'v2', 'websocket'] as const;

export const UsageQuery = z.object({ days: z.coerce.number().int().min(1).max(USAGE_MAX_DAYS).default(30) }).openapi('MgmtUsageQuery');

export const UsageDay = z
  .object({
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    total: z.number().int().min(0),
    /** Requests that named their credential, by generation; `total` minus their sum is unattributed. */
    byGeneration: z.object({ v1: z.number().int(), v2: z.number().int(), websocket: z.number().int() }),
  })
  .openapi('MgmtUsageDay');

export const UsageCredential = z
  .object({
    /** An API key id, `oauth:<client id>` or `jwt:<kid>`. */
    credential: z.string(),
    kind: z.enum(['api_key', 'oauth', 'jwt']),
    label: z.string(),
    total: z.number().int(),
    /** One count per day of `days`, in order. */
    perDay: z.array(z.number().int()),
  })
  .openapi('MgmtUsageCredential');

export const UsageResponse = z
  .object({
    from: z.string(),
    to: z.string(),
    generatedAt: Timestamp,
    days: z.array(UsageDay),
    credentials: z.array(UsageCredential),
    /**
     * Requests of the last day that the limiter counted but the store does not hold yet: they are
     * in that day's `total` and get their credential and generation at the next flush, seconds later.
     */
    pending: z.number().int().min(0),
  })
  .openapi('MgmtUsage');

export type UsageQuery = z.infer<typeof UsageQuery>;
export type UsageDay = z.infer<typeof UsageDay>;
export type UsageCredential = z.infer<typeof UsageCredential>;
export type UsageResponse = z.infer<typeof UsageResponse>;
