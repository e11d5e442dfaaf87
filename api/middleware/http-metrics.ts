/**
 * sha224d_http_requests_total, _request_duration_seconds, _requests_in_flight and
 * _upload_bytes_total (docs/operating.md "Catalogue"). Mounted first, so every request the app
 * answers is counted, refusals and 404s included.
 *
 * Labels are bounded: `route` is the template Express matched (`/v2/jobs/:id`), lower-cased mount
 * prefix included, never the raw path; a request inside a mounted router that matched no route
 * reads `<prefix>/*`, one that matched nothing `(unmatched)`; past MAX_ROUTES distinct templates
 * (a safety net, never reached by this app's ~80 routes) further ones read `(other)`. Children are
 * cached per (generation, route, method, status): the hot path does map lookups, no label hashing.
 */
import type { IncomingMessage } from 'node:http';
import type { Counter, Histogram } from 'prom-client';
import type { RequestHandler, Response } from 'express';
import type { Metrics } from '../../shared/metrics/catalogue.js';
import { uploadedBytes } from '../http/upload-meter.js';

export const UNMATCHED_ROUTE = '(unmatched)';
export const OVERFLOW_ROUTE = '(other)';
export const MAX_ROUTES = 200;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export type Generation = 'v1' | 'v2' | 'ws' | 'socketio' | 'other';

/** Whether `url` starts with `prefix` (lower case), ASCII-case-insensitively, followed by its end, `/` or `?`. */
function hasSegmentPrefix(url: string, prefix: string): boolean {
  if (url.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    // | 0x20 folds A-Z onto a-z; the prefixes hold only letters, digits, '/' and '.', unaffected or never matched by it.
    if ((url.charCodeAt(i) | 0x20) !== prefix.charCodeAt(i) && url.charCodeAt(i) !== prefix.charCodeAt(i)) return false;
  }
  const next = url.charCodeAt(prefix.length);
  return Number.isNaN(next) || next === 0x2f || next === 0x3f;
}

/** The generation a path belongs to, by prefix (case-insensitive, as Express routes); allocates nothing. */
export function generationOf(url: string): Generation {
  if (hasSegmentPrefix(url, '/v2/ws')) return 'ws';
  if (hasSegmentPrefix(url, '/v2')) return 'v2';
  if (hasSegmentPrefix(url, '/v1')) return 'v1';
  if (hasSegmentPrefix(url, '/socket.io')) return 'socketio';
  return 'other';
}

type Req = IncomingMessage & { route?: { path?: unknown }; baseUrl?: string; originalUrl?: string };

/** The route template of a finished request (see the module comment). */
export function routeTemplateOf(req: Req): string {
  const base = (req.baseUrl ?? '').toLowerCase();
  const path = req.route?.path;
  if (typeof path === 'string') return path === '/' && base !== '' ? base : base + path;
  return base === '' ? UNMATCHED_ROUTE : `${base}/*`;
}

const NO_ROUTE = '';
/** Past this many (mount prefix, route) pairs the template is computed each time instead of cached. */
const MAX_CACHED_TEMPLATES = 1000;

/** routeTemplateOf, memoised on the strings Express already holds, so the hot path builds no string. */
class RouteTemplates {
  private readonly byBase = new Map<string, Map<string, string>>();
  private size = 0;

  of(req: Req): string {
    const baseUrl = req.baseUrl ?? '';
    const path = typeof req.route?.path === 'string' ? req.route.path : NO_ROUTE;
    let byPath = this.byBase.get(baseUrl);
    const cached = byPath?.get(path);
    if (cached !== undefined) return cached;
    const template = routeTemplateOf(req);
    if (this.size < MAX_CACHED_TEMPLATES) {
      if (!byPath) this.byBase.set(baseUrl, (byPath = new Map<string, string>()));
      byPath.set(path, template);
      this.size++;
    }
    return template;
  }
}

interface MethodSeries {
  duration: Histogram.Internal<string>;
  byStatus: Map<number, Counter.Internal>;
}

/** The label-bound children, built on first use of each combination. */
class RequestSeries {
  private readonly routes = new Map<string, Map<string, Map<string, MethodSeries>>>();
  private readonly uploads = new Map<string, Counter.Internal>();
  private readonly known = new Set<string>();

  constructor(
    private readonly metrics: Metrics,
    private readonly maxRoutes: number,
  ) {}

  bound(route: string): string {
    if (this.known.has(route)) return route;
    if (this.known.size >= this.maxRoutes) return OVERFLOW_ROUTE;
    this.known.add(route);
    return route;
  }

  record(generation: Generation, rawRoute: string, rawMethod: string, status: number, seconds: number, uploaded: number): void {
    const route = this.bound(rawRoute);
    const method = METHODS.has(rawMethod) ? rawMethod : 'OTHER';
    let byRoute = this.routes.get(generation);
    if (!byRoute) this.routes.set(generation, (byRoute = new Map<string, Map<string, MethodSeries>>()));
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map<string, MethodSeries>()));
    let series = byMethod.get(method);
    if (!series) {
      series = { duration: this.metrics.httpDuration.labels(route, generation, method), byStatus: new Map() };
      byMethod.set(method, series);
    }
    let counter = series.byStatus.get(status);
    if (!counter) {
      counter = this.metrics.httpRequests.labels(route, generation, method, String(status));
      series.byStatus.set(status, counter);
    }
    counter.inc();
    series.duration.observe(seconds);
    if (uploaded > 0) {
      let upload = this.uploads.get(route);
      if (!upload) this.uploads.set(route, (upload = this.metrics.uploadBytes.labels(route)));
      upload.inc(uploaded);
    }
  }
}

export function httpMetrics(metrics: Metrics, options: { maxRoutes?: number } = {}): RequestHandler {
  const series = new RequestSeries(metrics, options.maxRoutes ?? MAX_ROUTES);
  const templates = new RouteTemplates();
  const inFlight = metrics.httpInFlight;
  // One listener function for every response ('close' fires once, after 'finish' or on abort).
  function onClose(this: Response): void {
    inFlight.dec();
    const started = this.locals.metricsStartedAt;
    if (started === undefined) return;
    const req = this.req as Req;
    series.record(
      generationOf(req.originalUrl ?? req.url ?? '/'),
      templates.of(req),
      req.method ?? 'GET',
      this.statusCode,
      (performance.now() - started) / 1000,
      uploadedBytes(this),
    );
  }
  return function measureRequest(_req, res, next) {
    inFlight.inc();
    res.locals.metricsStartedAt = performance.now();
    res.on('close', onClose);
    next();
  };
}
