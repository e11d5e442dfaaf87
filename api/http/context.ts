import type { Principal } from '../../shared/auth/principal.js';

/** Typed per-request state. Express's `res.locals` is the one place it lives. */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId: string;
      principal?: Principal;
      /** Request served by the sandbox host root (SPEC: separate usage). */
      sandbox?: boolean;
    }
  }
}

export {};
