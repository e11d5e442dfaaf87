/**
 * socket.io `subscribe` → `job` pushes for async jobs.
 *
 * Exactly one `job` event per subscribing socket: a subscriber joins room `job:<id>` on the node
 * it is connected to, and the event is emitted only to local sockets by `deliver`, which takes the
 * socket out of the room in the same synchronous step ("in the room?" → leave → emit). Every API
 * node hears every finished job (JobQueue.onFinished), so each node serves its own subscribers;
 * emitting through the Redis adapter as well would deliver one copy per node. Three paths can
 * find a job finished — the finish event, the check right after joining, and the periodic poll
 * that covers a lost pub/sub message — and the room check makes them race-free.
 */
import type { Namespace, Socket } from 'socket.io';
import { principalCan, type Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import type { JobQueue, JobRecord } from '../../shared/queue/types.js';
import type { ApiDeps } from '../deps.js';
import { parseWith } from '../http/validate.js';
import { SubscribeMessage } from '../schemas/ws.js';
import { jobStatusBody } from '../v2/render.js';
import type { RealtimeOptions } from './options.js';
import type { HashSession, Reply } from './session.js';

export interface SocketData {
  principal: Principal;
  session: HashSession;
}

/** Events are typed loosely on purpose: every payload is validated before use. */
export type LooseEvents = Record<string, (...args: unknown[]) => void>;
export type RealtimeSocket = Socket<LooseEvents, LooseEvents, LooseEvents, SocketData>;
export type RealtimeNamespace = Namespace<LooseEvents, LooseEvents, LooseEvents, SocketData>;

const ROOM_PREFIX = 'job:';

export function jobRoom(jobId: string): string {
  return `${ROOM_PREFIX}${jobId}`;
}

function isFinished(record: JobRecord): boolean {
  return record.state === 'completed' || record.state === 'failed';
}

export class JobPushes {
  private readonly stopListening: () => void;
  private readonly poller: NodeJS.Timeout;
  /** Job ids being read right now, so a burst of triggers costs one read. */
  private readonly reading = new Set<string>();

  constructor(
    private readonly nsp: RealtimeNamespace,
    private readonly deps: Pick<ApiDeps, 'queue' | 'logger'> & { queue: JobQueue },
    private readonly options: Pick<RealtimeOptions, 'jobPollMs' | 'maxSubscriptions'>,
  ) {
    this.stopListening = deps.queue.onFinished((jobId) => {
      if (this.nsp.adapter.rooms.has(jobRoom(jobId))) void this.deliver(jobId);
    });
    this.poller = setInterval(() => void this.poll(), options.jobPollMs);
    this.poller.unref();
  }

  /** Handle a `subscribe` event: the acknowledgement; the `job` event follows when the job finishes. */
  async subscribe(socket: RealtimeSocket, payload: unknown): Promise<Reply> {
    const { principal } = socket.data;
    if (!principalCan(principal, 'jobs')) throw new ServiceError('FORBIDDEN', { details: 'this credential lacks the jobs permission' });
    const jobId = parseWith(SubscribeMessage, payload);
    const room = jobRoom(jobId);
    const pending = [...socket.rooms].filter((r) => r.startsWith(ROOM_PREFIX)).length;
    if (!socket.rooms.has(room) && pending >= this.options.maxSubscriptions) {
      throw new ServiceError('RATE_LIMIT_EXCEEDED', {
        details: `at most ${this.options.maxSubscriptions} pending job subscriptions per connection`,
        retryAfter: 1,
      });
    }
    // Join before reading: a finish between the read and the join would otherwise be missed.
    await socket.join(room);
    let record: JobRecord | undefined;
    try {
      record = await this.deps.queue.get(jobId);
    } catch (err) {
      await socket.leave(room);
      throw err;
    }
    // Another account's job is reported as absent, as GET /v2/jobs/{id} does.
    if (record === undefined || record.accountId !== principal.accountId) {
      await socket.leave(room);
      throw new ServiceError('NOT_FOUND', { details: 'no such job' });
    }
    if (isFinished(record)) {
      const finished = record;
      // After the acknowledgement, which the caller sends when this promise resolves.
      setImmediate(() => this.deliverTo(socket, finished));
    }
    return { id: null, success: true, job_id: record.id, status: record.state };
  }

  close(): void {
    this.stopListening();
    clearInterval(this.poller);
  }

  private deliverTo(socket: RealtimeSocket, record: JobRecord): void {
    const room = jobRoom(record.id);
    if (!socket.rooms.has(room)) return;
    void socket.leave(room);
    // Defence in depth: only the owning account ever joins, but never push another's job.
    if (socket.data.principal.accountId !== record.accountId) return;
    socket.emit('job', jobStatusBody(record));
  }

  private async deliver(jobId: string): Promise<void> {
    if (this.reading.has(jobId)) return;
    this.reading.add(jobId);
    let record: JobRecord | undefined;
    try {
      record = await this.deps.queue.get(jobId);
    } catch (err) {
      // The poll tries again.
      this.deps.logger.debug({ err, jobId }, 'job push: reading the job failed');
      return;
    } finally {
      this.reading.delete(jobId);
    }
    const members = this.nsp.adapter.rooms.get(jobRoom(jobId));
    if (members === undefined) return;
    for (const socketId of [...members]) {
      const socket = this.nsp.sockets.get(socketId);
      if (socket === undefined) continue;
      if (record === undefined) {
        // Expired or removed while subscribed: say so once, as GET /v2/jobs/{id} would.
        void socket.leave(jobRoom(jobId));
        socket.emit('job', {
          success: false,
          job_id: jobId,
          error: { code: 'NOT_FOUND', message: 'Resource or endpoint does not exist', details: 'no such job' },
        });
      } else if (isFinished(record)) {
        this.deliverTo(socket, record);
      }
    }
  }

  private async poll(): Promise<void> {
    const jobIds = [...this.nsp.adapter.rooms.keys()]
      .filter((room) => room.startsWith(ROOM_PREFIX))
      .map((room) => room.slice(ROOM_PREFIX.length));
    // A few reads at a time: a node with many subscriptions must not flood the queue's Redis.
    for (let i = 0; i < jobIds.length; i += 16) await Promise.all(jobIds.slice(i, i + 16).map((id) => this.deliver(id)));
  }
}
