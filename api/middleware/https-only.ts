import type { RequestHandler } from 'express';

/** One year, subdomains included (RFC 6797 §6.1). */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * HTTPS only (SPEC: plain HTTP requests are redirected). Behind a trusted proxy,
 * X-Forwarded-Proto decides (Express's req.protocol honours "trust proxy"): plain HTTP gets a
 * 308, which keeps a POST's method and body (RFC 9110 §15.4.9); HTTPS responses carry HSTS.
 */
export function httpsOnly(options: { enforce: boolean; httpsPort?: number }): RequestHandler {
  return function requireHttps(req, res, next) {
    if (!options.enforce) return next();
    if (req.protocol === 'https') {
      res.setHeader('Strict-Transport-Security', HSTS_VALUE);
      return next();
    }
    res.redirect(308, httpsUrl(req.hostname, req.originalUrl, options.httpsPort));
  };
}

export function httpsUrl(hostname: string, path: string, port?: number): string {
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  return `https://${host}${port === undefined || port === 443 ? '' : `:${port}`}${path}`;
}
