/** A bulk job as GET /v2/bulk/{id} and the 202 of POST /v2/bulk show it (api/schemas/bulk.ts BulkStatus). */
import type { BulkRecord } from '../../shared/bulk/model.js';
import { isFinished } from '../../shared/bulk/store.js';
import type { z } from '../schemas/common.js';
import type { BulkStatus } from '../schemas/bulk.js';

export function bulkStatusUrl(id: string): string {
  return `/v2/bulk/${id}`;
}

export function bulkStatusBody(record: BulkRecord, now = Date.now()): z.output<typeof BulkStatus> {
  const finished = record.done + record.failed;
  const since = record.startedAt ?? record.createdAt;
  const elapsedMs = Math.max(1, (record.finishedAt ?? now) - since);
  const rate = record.startedAt === undefined ? 0 : finished / (elapsedMs / 1000);
  const pending = Math.max(0, record.total - finished);
  const eta = isFinished(record) || rate === 0 ? null : Math.ceil(pending / rate);
  return {
    success: true,
    id: record.id,
    source: record.source,
    status: record.state,
    items: { total: record.total, done: record.done, failed: record.failed, pending },
    chunks: { total: record.chunks, done: record.chunksDone },
    bytes: record.bytes,
    rate_items_per_second: Math.round(rate * 10) / 10,
    eta_seconds: eta,
    created_at: new Date(record.createdAt).toISOString(),
    ...(record.finishedAt === undefined ? {} : { finished_at: new Date(record.finishedAt).toISOString() }),
    status_url: bulkStatusUrl(record.id),
    results_url: `${bulkStatusUrl(record.id)}/results`,
    ...(isFinished(record)
      ? { summary: { items: finished, failed: record.failed, bytes: record.bytes, duration_ms: record.finishedAt! - record.createdAt } }
      : {}),
  };
}
