import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';
import type { Metrics } from '../../shared/metrics/catalogue.js';
import { metricsAccess, renderMetrics } from '../../shared/metrics/exposition.js';
import { renderV2Error } from '../http/envelopes.js';
import { sendError } from '../http/error-handler.js';

/**
 * GET /metrics on the API port (docs/operating.md "Where they are served"): 404 unless
 * METRICS_TOKEN is set, then only to `Authorization: Bearer <METRICS_TOKEN>`. Mounted before the
 * HTTPS redirect: Prometheus scrapes pods directly over plain HTTP. The 401 is deliberately dull.
 */
export function metricsEndpoint(options: { metrics: Metrics; token: string | undefined }): RequestHandler {
  return async function serveMetrics(req, res) {
    switch (metricsAccess(req.headers.authorization, options.token, true)) {
      case 'not_found':
        // As for any unknown endpoint (notFound in api/http/error-handler.ts): nothing says metrics exist here.
        sendError(res, new ServiceError('NOT_FOUND', { details: `no endpoint ${req.method} ${req.baseUrl}${req.path}` }), renderV2Error);
        return;
      case 'unauthorized':
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        sendError(res, new ServiceError('UNAUTHORIZED', { message: 'Invalid or missing metrics token' }), renderV2Error);
        return;
      case 'allowed': {
        const { contentType, body } = await renderMetrics(options.metrics);
        res.setHeader('Cache-Control', 'no-store');
        res.type(contentType).send(body);
      }
    }
  };
}
