/** The sandbox as the account sees it: where it is, today's sandbox usage, the last 30 days. */
import { Timestamp, z } from './common.js';

export const SandboxResponse = z
  .object({
    /** Base URL of the sandbox (its own listener or host); null when the deployment runs none. */
    url: z.string().nullable(),
    today: z.object({ used: z.number().int(), quota: z.number().int().nullable(), resetsAt: Timestamp }),
    days: z.array(z.object({ day: z.string(), count: z.number().int() })),
    /** A ready-to-paste request (the key is a placeholder). */
    example: z.string(),
  })
  .openapi('MgmtSandbox');

export type SandboxResponse = z.infer<typeof SandboxResponse>;
