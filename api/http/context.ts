import type { Principal } from '../../shared/auth/principal.js';
import type { ResponseCallerWatch } from './caller-watch.js';

/** Typed per-request state. Express's `res.locals` is the one place it lives. */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId: string;
      principal?: Principal;
      /** Request served by the sandbox host root (docs/api.md "Overview": counted apart). */
      sandbox?: boolean;
      /** Why the credentials presented did not identify a caller; thrown by routes that need one. */
      authError?: unknown;
      /** SHA-224 (hex) of the raw JSON body, kept when an Idempotency-Key was sent. */
      bodyDigest?: string;
      /** The caller's W3C traceparent, when valid (api/middleware/trace-context.ts). */
      traceparent?: string;
      /** Whether the caller is still there (api/middleware/trace-context.ts). */
      callerWatch?: ResponseCallerWatch;
      /** performance.now() at arrival (api/middleware/http-metrics.ts). */
      metricsStartedAt?: number;
      /** performance.now() when the request log started timing it (api/middleware/request-log.ts). */
      logStartedAt?: number;
      /** performance.now() when the request arrived: v2's processing_time_ms counts from here. */
      receivedAtMs?: number;
    }
  }
}

export {};
