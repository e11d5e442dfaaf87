/**
 * One attempt of one delivery, start to end: read the delivery and its endpoint, sign the
 * payload with every active secret, POST it, record the outcome and decide what comes next.
 * Both modes run this; they differ only in what calls it when (dispatch-local.ts, the BullMQ
 * `webhook` queue). What an answer means (docs/webhooks.md "Retries"):
 *  - any 2xx: delivered;
 *  - 410 Gone: the endpoint is disabled, the delivery failed (the receiver asked us to stop);
 *  - anything else, 3xx included (never followed), a timeout or a refused address: failed
 *    attempt, retried on the schedule, a 429/503 `Retry-After` honoured;
 *  - an endpoint failing without a success for WEBHOOK_DISABLE_AFTER_DAYS is disabled.
 * A test event gets one attempt and never counts against its endpoint.
 */
import type { Logger } from '../log.js';
import type { KyselyWebhookStore, WebhookDeliveryRecord, WebhookEndpointRecord } from '../store/kysely-webhooks.js';
import type { SecretBox } from './secrets.js';
import { nextDelayMs, parseRetryAfter } from './schedule.js';
import type { AttemptOutcome, SendPolicy, WebhookSender } from './send.js';
import { signedHeaders } from './signature.js';
import type { WebhookMetrics } from './metrics.js';

export interface DelivererOptions {
  store: KyselyWebhookStore;
  box: SecretBox;
  logger: Logger;
  schedule: readonly number[];
  send: SendPolicy;
  disableAfterMs: number;
  metrics?: WebhookMetrics | undefined;
  now?: () => number;
}

/**
 * Runs the HTTP request of an attempt, when a slot of its endpoint is free: what a per-endpoint
 * bound (WEBHOOK_ENDPOINT_CONCURRENCY) limits is requests in flight to the receiver, so the
 * store's reads and writes around them do not hold a slot (docs/decisions.md "Webhooks").
 */
export type SendGate = (endpointId: string, send: () => Promise<AttemptOutcome>) => Promise<AttemptOutcome>;
/** Opened secrets kept at most (two per endpoint during a rotation); past it the cache starts over. */
const OPENED_SECRETS_MAX = 1024;

const ungated: SendGate = (_endpointId, send) => send();

/** What an attempt needs of its delivery row. */
export type AttemptedDelivery = Pick<WebhookDeliveryRecord, 'id' | 'endpointId' | 'payload' | 'attempts' | 'isTest'>;

export type AttemptResult =
  { state: 'delivered' | 'failed' | 'skipped' } | { state: 'retry'; delayMs: number; endpointId: string; attemptsMade: number };

export class WebhookDeliverer {
  /** Built with the first attempt, not at start (undici is loaded then): most embedded nodes never send one. */
  private sender: Promise<WebhookSender> | undefined;
  private readonly secrets = new Map<string, string>();

  constructor(private readonly options: DelivererOptions) {}

  /** Closes the sender's keep-alive connections (requests in flight finish first). */
  async close(): Promise<void> {
    const sender = await this.sender?.catch(() => undefined);
    this.sender = undefined;
    await sender?.close();
  }

  private senderOf(): Promise<WebhookSender> {
    this.sender ??= import('./send.js').then(({ WebhookSender }) => new WebhookSender(this.options.send));
    return this.sender;
  }

  /** The secrets to sign with, newest first: the previous one too while its overlap lasts. */
  activeSecrets(endpoint: WebhookEndpointRecord, now: number): string[] {
    const secrets = [this.opened(endpoint.secretSealed, endpoint.id)];
    if (endpoint.previousSecretSealed !== undefined && (endpoint.previousExpiresAt ?? 0) > now)
      secrets.push(this.opened(endpoint.previousSecretSealed, endpoint.id));
    return secrets;
  }

  /**
   * A sealed secret opened once, not at every delivery (an AES-GCM decryption each). Keyed by the
   * sealed text and the endpoint id it is bound to: a rotation seals a new secret (a new random
   * IV), so it is a new key and the old entry simply stops being asked for.
   */
  private opened(sealed: string, endpointId: string): string {
    const key = `${endpointId} ${sealed}`;
    let secret = this.secrets.get(key);
    if (secret === undefined) {
      secret = this.options.box.open(sealed, endpointId);
      if (this.secrets.size >= OPENED_SECRETS_MAX) this.secrets.clear();
      this.secrets.set(key, secret);
    }
    return secret;
  }

  async attempt(deliveryId: string, gate: SendGate = ungated): Promise<AttemptResult> {
    const { store } = this.options;
    const delivery = await store.delivery(deliveryId);
    if (delivery === undefined || delivery.status !== 'pending') return { state: 'skipped' };
    const endpoint = await store.endpoint(delivery.endpointId);
    if (endpoint === undefined) return { state: 'skipped' };
    return this.attemptLoaded(delivery, endpoint, gate);
  }

  /**
   * An attempt of a pending delivery whose row and endpoint the caller has just read or written
   * (distributed mode's first attempt, shared/webhooks/event-deliveries.ts): no second read.
   */
  async attemptLoaded(delivery: AttemptedDelivery, endpoint: WebhookEndpointRecord, gate: SendGate = ungated): Promise<AttemptResult> {
    const { store, logger } = this.options;
    const now = this.options.now ?? Date.now;
    if (endpoint.disabledAt !== undefined && !delivery.isTest) {
      await store.recordAttempt(delivery.id, this.closing('failed', { latencyMs: 0, error: 'endpoint-disabled' }), now());
      return { state: 'failed' };
    }
    const timestamp = Math.floor(now() / 1000);
    const headers = signedHeaders(this.activeSecrets(endpoint, now()), delivery.id, timestamp, delivery.payload);
    const sender = await this.senderOf();
    const outcome = await gate(endpoint.id, () => sender.send(endpoint.url, headers, delivery.payload));
    const verdict = classify(outcome);
    this.options.metrics?.attempted(verdict.kind, outcome.latencyMs / 1000);
    const log = logger.child({ deliveryId: delivery.id, endpointId: endpoint.id, attempt: delivery.attempts + 1 });

    if (verdict.kind === 'success') {
      await store.recordAttempt(delivery.id, this.closing('delivered', outcome), now());
      // Only an endpoint in a failing run has one to end (docs/decisions.md "Webhooks": no write that changes nothing).
      if (!delivery.isTest && endpoint.failingSince !== undefined) await store.markEndpointHealth(endpoint.id, undefined);
      log.info({ status: outcome.status, latencyMs: outcome.latencyMs }, 'webhook delivered');
      return { state: 'delivered' };
    }
    if (delivery.isTest) {
      await store.recordAttempt(delivery.id, this.closing('failed', outcome), now());
      return { state: 'failed' };
    }
    if (verdict.kind === 'gone') {
      await store.recordAttempt(delivery.id, this.closing('failed', outcome), now());
      await store.disableEndpoint(endpoint.id, 'the endpoint answered 410 Gone', now());
      log.warn({ status: 410 }, 'webhook endpoint disabled: 410 Gone');
      return { state: 'failed' };
    }
    if (endpoint.failingSince === undefined) await store.markEndpointHealth(endpoint.id, now());
    const failingSince = endpoint.failingSince ?? now();
    if (now() - failingSince >= this.options.disableAfterMs) {
      await store.recordAttempt(delivery.id, this.closing('failed', outcome), now());
      await store.disableEndpoint(endpoint.id, 'failing for too long', now());
      log.warn({ failingSince }, 'webhook endpoint disabled: failing for too long');
      return { state: 'failed' };
    }
    const retryAfterMs = verdict.honourRetryAfter ? parseRetryAfter(outcome.retryAfter, now()) : undefined;
    const delayMs = nextDelayMs(this.options.schedule, delivery.attempts + 1, retryAfterMs);
    if (delayMs === undefined) {
      await store.recordAttempt(delivery.id, this.closing('failed', outcome), now());
      log.warn({ status: outcome.status, error: outcome.error }, 'webhook delivery failed: retries exhausted');
      return { state: 'failed' };
    }
    await store.recordAttempt(delivery.id, { ...this.closing('pending', outcome), nextAttemptAt: now() + delayMs }, now());
    log.info({ status: outcome.status, error: outcome.error, delayMs }, 'webhook attempt failed; retrying');
    return { state: 'retry', delayMs, endpointId: endpoint.id, attemptsMade: delivery.attempts + 1 };
  }

  private closing(
    status: 'pending' | 'delivered' | 'failed',
    outcome: Pick<AttemptOutcome, 'status' | 'error' | 'latencyMs' | 'bodyExcerpt'>,
  ) {
    return {
      status,
      nextAttemptAt: undefined,
      statusCode: outcome.status,
      error: outcome.error,
      latencyMs: outcome.latencyMs,
      response: outcome.bodyExcerpt,
    };
  }
}

type Verdict = { kind: 'success' } | { kind: 'gone' } | { kind: 'failure'; honourRetryAfter: boolean };

export function classify(outcome: AttemptOutcome): Verdict {
  const status = outcome.status;
  if (status === undefined) return { kind: 'failure', honourRetryAfter: false };
  if (status >= 200 && status < 300) return { kind: 'success' };
  if (status === 410) return { kind: 'gone' };
  return { kind: 'failure', honourRetryAfter: status === 429 || status === 503 };
}
