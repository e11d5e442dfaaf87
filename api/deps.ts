import type { Authenticator } from '../shared/auth/authenticator.js';
import type { WebhookService } from '../shared/webhooks/service.js';
import type { Principal } from '../shared/auth/principal.js';
import type { BlobStore } from '../shared/blob/types.js';
import type { Config } from '../shared/config.js';
import type { RequestLimiter } from '../shared/limits/limiter.js';
import type { PlanCatalog } from '../shared/limits/plans.js';
import type { Logger } from '../shared/log.js';
import type { Metrics } from '../shared/metrics/catalogue.js';
import type { JobQueue } from '../shared/queue/types.js';
import type { AccountStore } from '../shared/store/types.js';
import type { ResumableStore } from '../shared/uploads/store.js';
import type { LiveHashes } from '../shared/uploads/live-hashes.js';
import type { JobExecutor } from './jobs/executor.js';
import type { FirstUse } from './lazy.js';
import type { ProofServices } from '../shared/proof/services.js';
import type { BulkEngines } from '../shared/bulk/open.js';
import type { SecretBox } from '../shared/webhooks/secrets.js';

/** Bulk jobs' engines (shared/bulk/open.ts) and the box that seals S3 sources' credentials (absent: S3 sources answer 503). */
export interface BulkDeps extends BulkEngines {
  secrets?: SecretBox;
}

/** Upload endpoints whose size limits differ (docs/api.md "Limits"). */
export type UploadEndpoint = 'v1-file' | 'v1-url' | 'v2-file' | 'v2-stream';

/**
 * What an API node is given by its composition root (deploy/embedded.ts, api/main.ts, the tests'
 * test/helpers/api-server.ts); api/node.ts builds the rest (docs/decisions.md "Jobs and modes").
 */
export interface ApiEngines {
  config: Config;
  logger: Logger;
  store: AccountStore;
  queue: JobQueue;
  blobs: BlobStore;
  /** Default: this process's registry. */
  metrics?: Metrics;
  /** Closed after the listeners and before the queue and store (e.g. an in-process worker pool). */
  cleanups?: Array<() => Promise<void>>;
  /** Webhook endpoints and deliveries (shared/webhooks/); undefined when webhooks are off (no SECRETS_KEY). */
  webhooks?: WebhookService;
  /** Bulk jobs (docs/api.md "Bulk jobs"); undefined: POST /v2/bulk answers 503. */
  bulk?: BulkDeps;
}

/** What the handlers get: the engines and what api/compose.ts builds on them, once per node. */
export interface ApiDeps extends Omit<ApiEngines, 'metrics' | 'cleanups'> {
  authenticator: Authenticator;
  executor: JobExecutor;
  limiter: RequestLimiter;
  catalog: PlanCatalog;
  /** Bytes an upload may have for this principal at this endpoint (plan limits). */
  maxUploadBytes: (principal: Principal, endpoint: UploadEndpoint) => number;
  /** This node's registry (shared/metrics/catalogue.ts). */
  metrics: Metrics;
  /** Resumable (tus) uploads' records and write locks: memory in embedded mode, Redis in distributed mode. */
  resumable: ResumableStore;
  /** Resumable uploads' digests hashed in this node's memory between PATCHes (shared/uploads/live-hashes.ts). */
  uploadHashes: LiveHashes;
  /** Preflight helper: does any active client key allow this Origin host? */
  anyClientKeyAllows: (host: string) => Promise<boolean>;
  /** The transparency log and the time-stamp authority (docs/proving.md), opened on first use. */
  proof: FirstUse<ProofServices>;
}
