/** OpenAPI pieces only /v2's asynchronous routes use (api/v2/routes.ts). */
import { json, successHeaders, type Generation } from '../openapi-kit.js';
import { z } from '../schemas/common.js';
import * as v2 from '../schemas/v2.js';

export const idempotencyKeyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .openapi({
      description:
        'With `?async=true`: the same key and request return the first job (`Idempotent-Replayed: true`) instead of starting another; the same key with a different request is 422. 1-255 printable ASCII characters.',
    }),
});

/** The 202 of an `?async=true` submission. */
export function acceptedResponse(gen: Generation) {
  return {
    202: {
      description: 'Accepted: the job was queued (or, with a replayed Idempotency-Key, the first job is reported).',
      headers: { ...successHeaders(gen), Location: gen.headers.location, 'Idempotent-Replayed': gen.headers.replayed },
      ...json(v2.AcceptedResponse),
    },
  };
}
