/**
 * One realtime connection's hash requests, whatever the transport (/v2/ws or socket.io): bounded
 * in flight, counted against the rate limit and daily quota like an HTTP request, validated with
 * the /v2/hash rules, run by the same hash operation as /v2/hash (api/operations/digests.ts).
 */
import { usageCredential, principalCan, type Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import type { OutputFormat } from '../../shared/hashing/encoding.js';
import type { JobResults } from '../../shared/jobs/contracts.js';
import { rateLimitError } from '../../shared/limits/headers.js';
import type { LimitDecision, LimitRequest } from '../../shared/limits/types.js';
import { countRefusal } from '../../shared/metrics/record.js';
import { isoMillisAt } from '../../shared/time.js';
import type { ApiDeps } from '../deps.js';
import { encoded } from '../http/digest-output.js';
import { renderV2Error } from '../http/envelopes.js';
import { toServiceError } from '../http/error-handler.js';
import { parseWith } from '../http/validate.js';
import { hashInput } from '../operations/digests.js';
import { MAX_REQUEST_ID_LENGTH, SocketHashMessage, WS_ACTIONS, WsHashMessage } from '../schemas/ws.js';
import { checkWsHashFast } from '../schemas/ws-fast.js';
import type { RealtimeOptions } from './options.js';

export type Reply = { id: string | null; success: boolean } & Record<string, unknown>;

/** A message as received: parsed JSON, or text that failed to parse. */
export type Incoming = { parsed: true; value: unknown } | { parsed: false };

export type Transport = 'ws' | 'socket.io';

export function errorReply(id: string | null, err: ServiceError): Reply {
  return { id, ...renderV2Error(err), success: false };
}

/** The request id to echo: the message's `id` if it is a usable one, else null. */
export function requestIdOf(incoming: Incoming): string | null {
  if (!incoming.parsed || typeof incoming.value !== 'object' || incoming.value === null) return null;
  const id = (incoming.value as { id?: unknown }).id;
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_REQUEST_ID_LENGTH ? id : null;
}

export function parseIncoming(text: string): Incoming {
  try {
    return { parsed: true, value: JSON.parse(text) as unknown };
  } catch {
    return { parsed: false };
  }
}

/**
 * The /v2/hash body (api/v2/render.ts hashBody) behind the message's id: the same fields in the same
 * order, built in one literal rather than spread from three objects per message.
 */
function hashReply(id: string | null, result: JobResults['hash'], output: OutputFormat, started: number): Reply {
  const other = output === 'hex' ? undefined : encoded(result.digest, output);
  return {
    id,
    success: true,
    hash: other === undefined ? result.digest : other.hash,
    encoding: other === undefined ? 'hex' : other.encoding,
    algorithm: 'SHA-224',
    timestamp: isoMillisAt(Date.now()),
    processing_time_ms: Math.round(performance.now() - started),
  };
}

export class HashSession {
  private inFlight = 0;
  private inFlightBytes = 0;
  private idleWaiters: Array<() => void> = [];
  /** The principal is the connection's for its lifetime: its permission is looked up once. */
  private readonly canHash: boolean;
  /** What every message of this connection is counted as (the limiter counts each message with it). */
  private readonly limitRequest: LimitRequest;

  constructor(
    private readonly deps: Pick<ApiDeps, 'executor' | 'limiter' | 'logger' | 'metrics'>,
    private readonly principal: Principal,
    private readonly options: Pick<RealtimeOptions, 'maxInFlight' | 'maxInFlightBytes'>,
    private readonly transport: Transport,
  ) {
    this.canHash = principalCan(principal, 'hash');
    this.limitRequest = {
      accountId: principal.accountId,
      plan: principal.plan,
      keyType: principal.keyType,
      generation: 'ws',
      sandbox: false,
      credential: usageCredential(principal),
    };
  }

  get pending(): number {
    return this.inFlight;
  }

  /** Resolves once nothing is in flight (graceful close). */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * The reply to one message as a promise; never rejects. The message stays in flight until the
   * promise settles, so a burst sent in one turn meets the in-flight bound (socket.io).
   */
  handle(incoming: Incoming, bytes: number): Promise<Reply> {
    const id = requestIdOf(incoming);
    if (this.overBound(bytes)) return Promise.resolve(errorReply(id, this.overloaded()));
    this.inFlight += 1;
    this.inFlightBytes += bytes;
    let answer: Promise<Reply>;
    try {
      answer = Promise.resolve(this.process(incoming, id));
    } catch (err) {
      answer = Promise.resolve(this.failed(id, err));
    }
    return answer.catch((err: unknown) => this.failed(id, err)).finally(() => this.settled(bytes));
  }

  /**
   * The reply to one message (/v2/ws); never throws, and a returned promise never rejects. Over the
   * in-flight bound the answer is immediate and costs nothing else: no rate-limit count, no
   * parsing beyond the id. A message the limiter decides without its counters and that is hashed
   * on this node is answered in this turn: a promise and its microtasks per message were a
   * measurable share of a small message's cost.
   */
  handleNow(incoming: Incoming, bytes: number): Reply | Promise<Reply> {
    const id = requestIdOf(incoming);
    if (this.overBound(bytes)) return errorReply(id, this.overloaded());
    this.inFlight += 1;
    this.inFlightBytes += bytes;
    let answer: Reply | Promise<Reply>;
    try {
      answer = this.process(incoming, id);
    } catch (err) {
      answer = this.failed(id, err);
    }
    if (!(answer instanceof Promise)) {
      this.settled(bytes);
      return answer;
    }
    return answer.catch((err: unknown) => this.failed(id, err)).finally(() => this.settled(bytes));
  }

  private overBound(bytes: number): boolean {
    return this.inFlight >= this.options.maxInFlight || this.inFlightBytes + bytes > this.options.maxInFlightBytes;
  }

  private failed(id: string | null, err: unknown): Reply {
    const error = toServiceError(err);
    if (error.status >= 500) this.deps.logger.error({ err: error.cause ?? err, transport: this.transport }, 'realtime message failed');
    return errorReply(id, error);
  }

  private settled(bytes: number): void {
    this.inFlight -= 1;
    this.inFlightBytes -= bytes;
    if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private process(incoming: Incoming, id: string | null): Reply | Promise<Reply> {
    // socket.io admits keys that may only subscribe (read-only); /v2/ws admits only hash keys.
    if (!this.canHash) {
      countRefusal(this.deps.metrics, 'permission');
      throw new ServiceError('FORBIDDEN', { details: 'this credential lacks the hash permission' });
    }
    // Every message counts, as every HTTP request does (the HTTP guard counts before parsing).
    const request = this.limitRequest;
    const decided = this.deps.limiter.consumeSync?.(request);
    if (decided !== undefined) return this.admitted(decided, incoming, id);
    return this.deps.limiter.consume(request).then((decision) => this.admitted(decision, incoming, id));
  }

  private admitted(decision: LimitDecision, incoming: Incoming, id: string | null): Reply | Promise<Reply> {
    if (!decision.allowed) {
      countRefusal(this.deps.metrics, decision.reason === 'quota' ? 'quota' : 'rate');
      throw rateLimitError(decision);
    }
    if (!incoming.parsed) throw new ServiceError('INVALID_INPUT', { message: 'Message is not valid JSON', details: 'field: message' });
    const value = incoming.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ServiceError('INVALID_INPUT', { message: 'Message must be a JSON object', details: 'field: message' });
    }
    const action = (value as { action?: unknown }).action;
    if (this.transport === 'ws' && action !== 'hash') {
      const shown =
        typeof action === 'string' ? `Unknown action ${JSON.stringify(action.slice(0, 64))}` : 'The action parameter is required';
      throw new ServiceError('INVALID_INPUT', { message: `${shown}; supported: ${WS_ACTIONS.join(', ')}`, details: 'field: action' });
    }
    const message =
      (this.transport === 'ws' ? checkWsHashFast(value) : undefined) ??
      parseWith(this.transport === 'ws' ? WsHashMessage : SocketHashMessage, value);
    const started = performance.now();
    const replyId = id ?? message.id ?? null;
    const { output } = message;
    const result = hashInput(this.deps, this.principal, message.input);
    if (result instanceof Promise) return result.then((r) => hashReply(replyId, r, output, started));
    return hashReply(replyId, result, output, started);
  }

  private overloaded(): ServiceError {
    return new ServiceError('RATE_LIMIT_EXCEEDED', {
      details: `more than ${this.options.maxInFlight} messages (or ${this.options.maxInFlightBytes} bytes) in flight on this connection; wait for replies before sending more`,
      retryAfter: 1,
    });
  }
}
