import type { RequestHandler } from 'express';

export interface SandboxOptions {
  /** Requests whose Host is this name are sandbox requests (SPEC {sandbox_url}). */
  host?: string;
  /** Requests arriving on this local port are sandbox requests (the second listener). */
  port?: number;
}

/**
 * Marks sandbox requests. They work fully but count in separate usage that never touches
 * production quotas (SPEC "What the service does").
 */
export function detectSandbox(options: SandboxOptions): RequestHandler {
  const host = options.host?.toLowerCase();
  return function markSandbox(req, res, next) {
    res.locals.sandbox =
      (host !== undefined && req.hostname.toLowerCase() === host) || (options.port !== undefined && req.socket.localPort === options.port);
    next();
  };
}
