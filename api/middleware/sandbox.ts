import type { RequestHandler } from 'express';

export interface SandboxOptions {
  /** Requests whose Host is this name are sandbox requests ({sandbox_url} of docs/api.md "Overview"). */
  host?: string;
  /** Requests arriving on this local port are sandbox requests (the second listener). */
  port?: number;
}

/**
 * Marks sandbox requests. They work fully but count in separate usage that never touches
 * production quotas (docs/api.md "Overview").
 */
export function detectSandbox(options: SandboxOptions): RequestHandler {
  const host = options.host?.toLowerCase();
  return function markSandbox(req, res, next) {
    res.locals.sandbox =
      (host !== undefined && req.hostname.toLowerCase() === host) || (options.port !== undefined && req.socket.localPort === options.port);
    next();
  };
}
