/**
 * Proof of existence (docs/proving.md): logging digests with a receipt, reading receipts back (an
 * account sees only its own), consistency proofs between checkpoints, RFC 3161 time-stamps.
 */
import type { Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import type { LeafSource } from '../../shared/proof/leaf.js';
import type { LoggedReceipt, ReceiptWaiter } from '../../shared/proof/log.js';
import type { Stamped } from '../../shared/proof/tsa.js';
import type { JobRecord } from '../../shared/queue/types.js';
import type { ApiDeps } from '../deps.js';

type Proof = Pick<ApiDeps, 'proof'>;

export async function logDigest(
  deps: Proof,
  principal: Principal,
  entry: { digest: string; length: number; source: LeafSource },
): Promise<LoggedReceipt> {
  // Loaded once: later calls take it without waiting a turn for a settled promise.
  const { log } = deps.proof.ready() ?? (await deps.proof.get());
  return { receipt: await log.log({ ...entry, accountId: principal.accountId }), logKey: log.key.verifierKey };
}

/**
 * logDigest with the receipt handed to `waiter` (TransparencyLog.logTo): what a request answered
 * from its receipt holds while its batch is written is then the waiter and its leaf, no promise.
 * Returns a promise only while the proof services are still loading (the first request).
 */
export function logDigestTo(
  deps: Proof,
  principal: Principal,
  entry: { digest: string; length: number; source: LeafSource },
  waiter: ReceiptWaiter,
): void | Promise<void> {
  const accountId = principal.accountId;
  const services = deps.proof.ready();
  if (services) return services.log.logTo({ digest: entry.digest, length: entry.length, source: entry.source, accountId }, waiter);
  return deps.proof
    .get()
    .then(({ log }) => log.logTo({ digest: entry.digest, length: entry.length, source: entry.source, accountId }, waiter));
}

/** What a completed job that asked for `log` puts in the log; undefined for any other job. */
function loggedEntry(record: JobRecord): { digest: string; length: number; source: LeafSource } | undefined {
  if (record.state !== 'completed') return undefined;
  switch (record.kind) {
    case 'file':
    case 'stream':
    case 'url':
      return record.payload.log === true && record.result
        ? { digest: record.result.digest, length: record.result.size, source: record.kind }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * The receipt of a completed job that asked for `log` (docs/proving.md "Logging a job's digest"),
 * logging its digest when its result is first read: workers have no database, so the API node that
 * answers the result appends it, keyed by the job id, so however often and on whichever node the
 * job is read, it has one leaf. Undefined for any other job.
 */
export async function jobReceipt(deps: Proof, record: JobRecord): Promise<LoggedReceipt | undefined> {
  const entry = loggedEntry(record);
  if (!entry) return undefined;
  const { log } = await deps.proof.get();
  const receipt = await log.log({ ...entry, accountId: record.accountId }, `job:${record.id}`);
  return { receipt, logKey: log.key.verifierKey };
}

/** Another account's receipt is reported as absent, like another account's job. */
export async function receiptOf(deps: Proof, principal: Principal, id: string): Promise<LoggedReceipt> {
  const { log } = await deps.proof.get();
  const index = Number(id);
  const leaf = await log.leaf(index);
  if (!leaf || leaf.account !== log.accountTag(principal.accountId)) throw new ServiceError('NOT_FOUND', { message: 'No such receipt' });
  return { receipt: await log.receipt(index), logKey: log.key.verifierKey };
}

export async function consistencyBetween(
  deps: Proof,
  from: number,
  to: number | undefined,
): Promise<{ from: number; to: number; proof: Buffer[]; fromCheckpoint: string; toCheckpoint: string }> {
  const { log } = await deps.proof.get();
  const latest = await log.latest();
  const end = to ?? latest.size;
  if (from > end || end > latest.size) {
    throw new ServiceError('INVALID_INPUT', { details: `from and to must satisfy 0 ≤ from ≤ to ≤ ${latest.size} (the latest checkpoint)` });
  }
  const [proof, a, b] = await Promise.all([log.consistency(from, end), log.checkpointAt(from), log.checkpointAt(end)]);
  return { from, to: end, proof, fromCheckpoint: a.note, toCheckpoint: b.note };
}

export async function timestamp(deps: Proof, request: Buffer): Promise<Stamped> {
  const { tsa } = await deps.proof.get();
  return tsa.respond(request);
}
