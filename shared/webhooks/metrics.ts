/** Webhook figures for /metrics: attempts by outcome, attempt latency, and the pending backlog. */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface WebhookMetrics {
  attempted(outcome: 'success' | 'gone' | 'failure', seconds: number): void;
  backlog(pending: number): void;
}

export function webhookMetrics(registry: Registry): WebhookMetrics {
  const attempts = new Counter({
    name: 'sha224d_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (success: 2xx; gone: 410; failure: anything else)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'sha224d_webhook_attempt_duration_seconds',
    help: 'Webhook attempt duration, from connect to the answer (or the failure)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [registry],
  });
  const pending = new Gauge({
    name: 'sha224d_webhook_pending_deliveries',
    help: 'Webhook deliveries waiting for an attempt (due or scheduled)',
    registers: [registry],
  });
  return {
    attempted(outcome, seconds) {
      attempts.inc({ outcome });
      latency.observe(seconds);
    },
    backlog(n) {
      pending.set(n);
    },
  };
}
