/**
 * Parts of an API node built on their first use rather than at start: what the first request of a
 * cold start does not need is not loaded before it (docs/decisions.md "Cold start"). A part that
 * cannot be loaded is a defect of the build: it is logged, its request gets the catalog's
 * SERVICE_UNAVAILABLE in its generation's envelope, and the next request tries again.
 */
import type { RequestHandler } from 'express';
import { ServiceError } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';

/** A part built on its first use. */
export interface FirstUse<T> {
  /**
   * The part, loading it on the first call; a failure is logged and forgotten (the next call
   * retries) and rejects with SERVICE_UNAVAILABLE.
   */
  get(): Promise<T>;
  /** The part if it has been built. */
  ready(): T | undefined;
  /** The part once a load under way ends; undefined if none was started or it failed. */
  settled(): Promise<T | undefined>;
}

export function onFirstUse<T>(name: string, logger: Logger, load: () => Promise<T>): FirstUse<T> {
  let loading: Promise<T> | undefined;
  let loaded: T | undefined;
  return {
    get: () =>
      (loading ??= load().then(
        (part) => (loaded = part),
        (err: unknown) => {
          logger.error({ err }, `${name} could not be loaded`);
          loading = undefined;
          throw new ServiceError('SERVICE_UNAVAILABLE', { cause: err });
        },
      )),
    ready: () => loaded,
    settled: () => (loading ? loading.catch(() => undefined) : Promise.resolve(loaded)),
  };
}

/** A handler built on its first request, which can also be loaded without one. */
export interface LazyHandler extends RequestHandler {
  /** The handler, loaded if need be: what test/openapi/served-routes.test.ts walks to list what the node serves. */
  load(): Promise<RequestHandler>;
}

/** A handler (an Express router, say) built on its first request; later requests go straight to it. */
export function lazyHandler(name: string, logger: Logger, load: () => Promise<RequestHandler>): LazyHandler {
  const part = onFirstUse(name, logger, load);
  const serve: RequestHandler = (req, res, next) => {
    const handler = part.ready();
    if (handler !== undefined) {
      handler(req, res, next);
      return;
    }
    part
      .get()
      .then((loaded) => loaded(req, res, next))
      .catch(next);
  };
  return Object.assign(serve, { load: () => part.get() });
}
