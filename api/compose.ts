import type { Express, RequestHandler } from 'express';
import type { Principal } from '../shared/auth/principal.js';
import { createAuthenticator, type TokenVerifier } from '../shared/auth/credentials.js';
import type { BlobStore } from '../shared/blob/types.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/log.js';
import type { JobQueue } from '../shared/queue/types.js';
import type { AccountStore } from '../shared/store/types.js';
import { createApp, type AppOptions } from './app.js';
import { clientDomainIndex } from './client-domain-index.js';
import type { ApiDeps, UploadEndpoint } from './deps.js';
import { JobExecutor } from './jobs/executor.js';

export interface ApiEngines {
  config: Config;
  logger: Logger;
  store: AccountStore;
  queue: JobQueue;
  blobs: BlobStore;
  bearerVerifiers?: TokenVerifier[];
  maxUploadBytes?: (principal: Principal, endpoint: UploadEndpoint) => number;
}

/** v1 /file/hash: "maximum 25 MB for standard accounts" (SPEC). */
const V1_FILE_DEFAULT_BYTES = 25 * 1000 * 1000;

export function defaultUploadLimits(config: Config): (principal: Principal, endpoint: UploadEndpoint) => number {
  return (_principal, endpoint) => {
    switch (endpoint) {
      case 'v1-file':
        return Math.min(V1_FILE_DEFAULT_BYTES, config.MAX_FILE_BYTES);
      case 'v2-stream':
        return config.MAX_STREAM_BYTES;
      case 'v2-file':
      case 'url':
        return config.MAX_FILE_BYTES;
    }
  };
}

/** Wires the API's dependencies; the composition roots (embedded, api/main) call this. */
export function composeApi(engines: ApiEngines, options: AppOptions & { extraGuards?: RequestHandler[] } = {}): { app: Express; deps: ApiDeps } {
  const { config } = engines;
  const deps: ApiDeps = {
    config,
    logger: engines.logger,
    store: engines.store,
    queue: engines.queue,
    blobs: engines.blobs,
    authenticator: createAuthenticator({ store: engines.store, bearerVerifiers: engines.bearerVerifiers }),
    executor: new JobExecutor({ queue: engines.queue, inlineMaxBytes: config.INLINE_MAX_BYTES, syncTimeoutMs: config.syncTimeoutMs }),
    maxUploadBytes: engines.maxUploadBytes ?? defaultUploadLimits(config),
    anyClientKeyAllows: clientDomainIndex(engines.store),
  };
  return { app: createApp(deps, options), deps };
}
