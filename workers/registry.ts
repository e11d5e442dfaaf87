import type { JobHandlers } from '../shared/queue/types.js';
import { fileHandler, streamHandler } from './handlers/blob-digest.js';
import { batchHandler, hashHandler, hmacHandler, verifyHandler } from './handlers/memory.js';
import { createUrlHandler } from './handlers/url.js';

export interface HandlerOptions {
  /** URL_FETCH_ALLOW_LOOPBACK: test-only, off by default. */
  allowLoopbackUrls: boolean;
}

/** One handler per job kind; the same table runs in worker processes and in embedded mode. */
export function createJobHandlers(options: HandlerOptions): JobHandlers {
  return {
    hash: hashHandler,
    hmac: hmacHandler,
    verify: verifyHandler,
    batch: batchHandler,
    file: fileHandler,
    stream: streamHandler,
    url: createUrlHandler({ allowLoopback: options.allowLoopbackUrls }),
  };
}
