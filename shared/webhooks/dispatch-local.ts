/**
 * Embedded mode's delivery runner. The delivery table is the queue: every pending row has a due
 * time (next_attempt_at), and this loop reads the rows that are due and attempts them. Nothing
 * lives only in memory, so a restart loses no delivery: the first pass after start finds every
 * pending row. New deliveries `kick` the loop so their first attempt is not held to the poll.
 */
import type { Logger } from '../log.js';
import type { KyselyWebhookStore } from '../store/kysely-webhooks.js';
import type { WebhookDeliverer } from './deliver.js';
import type { WebhookMetrics } from './metrics.js';

export interface LocalDispatcherOptions {
  store: KyselyWebhookStore;
  deliverer: WebhookDeliverer;
  logger: Logger;
  pollMs: number;
  /** Attempts in flight to one endpoint. */
  perEndpoint: number;
  /** Attempts in flight in all. */
  total: number;
  metrics?: WebhookMetrics | undefined;
}

export class LocalWebhookDispatcher {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly perEndpoint = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private passing: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(private readonly options: LocalDispatcherOptions) {}

  start(): void {
    this.kick();
  }

  /** Runs a pass now (or right after the one under way). */
  kick(): void {
    if (this.closed) return;
    if (this.passing !== undefined) {
      this.again = true;
      return;
    }
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.passing = this.pass()
      .catch((err: unknown) => this.options.logger.warn({ err }, 'webhook dispatch pass failed'))
      .finally(() => {
        this.passing = undefined;
        if (this.closed) return;
        if (this.again) {
          this.again = false;
          this.kick();
          return;
        }
        this.timer = setTimeout(() => this.kick(), this.options.pollMs);
        this.timer.unref();
      });
  }

  /** The scheduler the service hands new deliveries to. */
  readonly schedule = (): Promise<void> => {
    this.kick();
    return Promise.resolve();
  };

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.passing;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Attempts currently running (for tests and the backlog gauge). */
  get running(): number {
    return this.inFlight.size;
  }

  private async pass(): Promise<void> {
    const { store, total, perEndpoint, metrics } = this.options;
    const free = total - this.inFlight.size;
    if (free <= 0) return;
    const due = await store.dueDeliveries(Date.now(), free + this.inFlight.size);
    for (const delivery of due) {
      if (this.inFlight.size >= total) break;
      if (this.inFlight.has(delivery.id)) continue;
      const busy = this.perEndpoint.get(delivery.endpointId) ?? 0;
      if (busy >= perEndpoint) continue;
      this.perEndpoint.set(delivery.endpointId, busy + 1);
      const run = this.options.deliverer
        .attempt(delivery.id)
        .then((result) => {
          // A retry due at once (a 0 step) should not wait for the poll.
          if (result.state === 'retry' && result.delayMs < this.options.pollMs) setTimeout(() => this.kick(), result.delayMs).unref();
        })
        .catch((err: unknown) => this.options.logger.warn({ err, deliveryId: delivery.id }, 'webhook attempt failed to run'))
        .finally(() => {
          this.inFlight.delete(delivery.id);
          const left = (this.perEndpoint.get(delivery.endpointId) ?? 1) - 1;
          if (left === 0) this.perEndpoint.delete(delivery.endpointId);
          else this.perEndpoint.set(delivery.endpointId, left);
          // A slot freed: deliveries held back by a bound may go now.
          this.kick();
        });
      this.inFlight.set(delivery.id, run);
    }
    if (metrics !== undefined) metrics.backlog(await store.pendingCount());
  }
}
