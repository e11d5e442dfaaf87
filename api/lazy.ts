/**
 * Parts of an API node built on their first use rather than at start: what the first request of a
 * cold start does not need is not loaded before it (docs/decisions.md "Cold start"). A part that
 * cannot be loaded is a defect of the build: it is logged, its request gets the catalog's
 * SERVICE_UNAVAILABLE in its generation's envelope, and the next request tries again.
 */
import type { RequestHandler } from 'express';
import { ServiceError } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';

/** `load` run once, on the first call; a failure is logged and forgotten, and rejects with SERVICE_UNAVAILABLE. */
export function onFirstUse<T>(name: string, logger: Logger, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      logger.error({ err }, `${name} could not be loaded`);
      loading = undefined;
      throw new ServiceError('SERVICE_UNAVAILABLE', { cause: err });
    }));
}

/** A handler (an Express router, say) built on its first request; later requests go straight to it. */
export function lazyHandler(name: string, logger: Logger, load: () => Promise<RequestHandler>): RequestHandler {
  const get = onFirstUse(name, logger, load);
  let handler: RequestHandler | undefined;
  return (req, res, next) => {
    if (handler !== undefined) {
      handler(req, res, next);
      return;
    }
    get()
      .then((loaded) => {
        handler = loaded;
        loaded(req, res, next);
      })
      .catch(next);
  };
}
