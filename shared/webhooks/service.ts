/**
 * What the management API, the admin CLI and the job finishers ask of webhooks: endpoints made,
 * changed, rotated and removed; events turned into deliveries; replays and test events. What
 * runs a delivery's attempts is the dispatcher of the mode (`schedule`): the local poller in
 * embedded mode, the BullMQ `webhook` queue in distributed mode.
 */
import { randomBytes } from 'node:crypto';
import type { KyselyWebhookStore, WebhookDeliveryRecord, WebhookEndpointRecord } from '../store/kysely-webhooks.js';
import { endpointsForEvent, eventKeyOf, jobEvent, testEvent, type FinishedJob, type WebhookEvent } from './events.js';
import { generateSecret, type SecretBox } from './secrets.js';

/** Hands new or replayed deliveries to whatever runs attempts (at once: their first attempt is due now). */
export type DeliveryScheduler = (deliveryIds: readonly string[]) => Promise<void>;

export interface WebhookServiceOptions {
  store: KyselyWebhookStore;
  box: SecretBox;
  schedule: DeliveryScheduler;
  secretOverlapMs: number;
  allowCidrs?: readonly string[];
}

/** `msg_` + 26 base32 characters (128 random bits): the webhook-id, as Standard Webhooks suggests. */
export function newDeliveryId(): string {
  return `msg_${base32(randomBytes(16))}`;
}

export function newEndpointId(): string {
  return `ep_${base32(randomBytes(16))}`;
}

function base32(bytes: Buffer): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

export interface NewEndpointInput {
  accountId: string;
  url: string;
  description?: string;
  eventTypes?: string[];
}

export class WebhookService {
  constructor(private readonly options: WebhookServiceOptions) {}

  get store(): KyselyWebhookStore {
    return this.options.store;
  }

  /** WEBHOOK_ALLOW_CIDRS, for checking endpoint URLs (endpoint-url.ts). */
  get allowCidrs(): readonly string[] {
    return this.options.allowCidrs ?? [];
  }

  /** Creates an endpoint; the returned secret is shown once and never again in clear. */
  async createEndpoint(input: NewEndpointInput): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
    const id = newEndpointId();
    const secret = generateSecret();
    const endpoint = await this.options.store.createEndpoint({
      id,
      accountId: input.accountId,
      url: input.url,
      description: input.description ?? '',
      eventTypes: input.eventTypes ?? [],
      secretSealed: this.options.box.seal(secret, id),
    });
    return { endpoint, secret };
  }

  /**
   * A new secret; the current one keeps signing beside it (two `v1,` entries) for the overlap,
   * so receivers can switch without losing a delivery. Returns the new secret (shown once).
   */
  async rotateSecret(endpoint: WebhookEndpointRecord, now = Date.now()): Promise<{ secret: string; previousExpiresAt: number }> {
    const secret = generateSecret();
    const previousExpiresAt = now + this.options.secretOverlapMs;
    // The current secret is re-sealed (under the current SECRETS_KEY) as it moves to "previous".
    const current = this.options.box.open(endpoint.secretSealed, endpoint.id);
    await this.options.store.rotateSecret(
      endpoint.id,
      this.options.box.seal(secret, endpoint.id),
      this.options.box.seal(current, endpoint.id),
      previousExpiresAt,
      now,
    );
    return { secret, previousExpiresAt };
  }

  /**
   * A finished async job: one delivery per enabled endpoint of its account whose filter takes the
   * event, or only `target` when the submission named one. Idempotent per (endpoint, job, event).
   */
  async jobFinished(job: FinishedJob, target?: { endpointId?: string | undefined }): Promise<string[]> {
    const event = jobEvent(job);
    const endpoints = endpointsForEvent(await this.options.store.enabledEndpoints(job.accountId), event.type, target);
    return this.enqueue(endpoints, event, eventKeyOf(event.type, job.id), false);
  }

  /** A `webhook.test` event to one endpoint (enabled or not): one attempt, not counted against it. */
  async sendTest(endpoint: WebhookEndpointRecord): Promise<string | undefined> {
    const [id] = await this.enqueue([endpoint], testEvent(), eventKeyOf('webhook.test', newDeliveryId()), true);
    return id;
  }

  /** Sends a delivery again with the same webhook-id and payload. */
  async replay(delivery: WebhookDeliveryRecord): Promise<void> {
    await this.options.store.requeue(delivery.id);
    await this.options.schedule([delivery.id]);
  }

  private async enqueue(
    endpoints: readonly WebhookEndpointRecord[],
    event: WebhookEvent,
    eventKey: string,
    isTest: boolean,
  ): Promise<string[]> {
    if (endpoints.length === 0) return [];
    const payload = JSON.stringify(event);
    const ids = await this.options.store.insertDeliveries(
      endpoints.map((e) => ({
        id: newDeliveryId(),
        endpointId: e.id,
        accountId: e.accountId,
        eventType: event.type,
        eventKey,
        payload,
        isTest,
      })),
    );
    if (ids.length > 0) await this.options.schedule(ids);
    return ids;
  }
}
