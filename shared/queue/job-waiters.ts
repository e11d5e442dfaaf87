/**
 * The synchronous waits of one API node, by job id: a finished message wakes the waits for its job,
 * handing over the outcome when the message carried one (the node's own channel), or nothing (the
 * shared channel, or a worker that predates `replyTo`) — then the waiter reads the job itself.
 */
import type { JobKind, JobResults } from '../jobs/contracts.js';
import type { JobFinishedMessage } from './bullmq-wire.js';
import type { JobErrorInfo } from './types.js';

export type JobOutcome = { state: 'completed'; result: JobResults[JobKind] } | { state: 'failed'; error: JobErrorInfo };

/** Interest in one job id. */
export interface Watch {
  /** Resolves at the next message for the job, with its outcome if the message carried it. */
  signal: Promise<JobOutcome | undefined>;
  /** A fresh `signal` for the message after. */
  rearm(): void;
  cancel(): void;
}

type Wake = (outcome: JobOutcome | undefined) => void;

export class JobWaiters {
  private readonly byId = new Map<string, Set<Wake>>();

  watch(id: string): Watch {
    let resolveCurrent: Wake = () => undefined;
    const arm = (): Promise<JobOutcome | undefined> =>
      new Promise((resolve) => {
        resolveCurrent = resolve;
      });
    const wake: Wake = (outcome) => resolveCurrent(outcome);
    let set = this.byId.get(id);
    if (set === undefined) {
      set = new Set();
      this.byId.set(id, set);
    }
    set.add(wake);
    const handle: Watch = {
      signal: arm(),
      rearm: () => {
        handle.signal = arm();
      },
      cancel: () => {
        const current = this.byId.get(id);
        if (current === undefined) return;
        current.delete(wake);
        if (current.size === 0) this.byId.delete(id);
      },
    };
    return handle;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  wake(id: string, outcome?: JobOutcome): void {
    const set = this.byId.get(id);
    if (set) for (const wake of set) wake(outcome);
  }

  /** Wake every wait without an outcome (shutdown: their next read fails fast). */
  wakeAll(): void {
    for (const id of [...this.byId.keys()]) this.wake(id);
  }
}

/** The outcome a finished message carries, if it carries one. */
export function outcomeOf(message: JobFinishedMessage): JobOutcome | undefined {
  if (message.state === 'completed') return message.result === undefined ? undefined : { state: message.state, result: message.result };
  return message.error === undefined ? undefined : { state: message.state, error: message.error };
}

export type WaitEvent = { kind: 'message'; outcome: JobOutcome | undefined } | { kind: 'aborted' } | { kind: 'slept' };

/** Whichever comes first: the job's message, the caller leaving, or `ms` passing. */
export function nextEvent(message: Promise<JobOutcome | undefined>, callerGone: AbortSignal | undefined, ms: number): Promise<WaitEvent> {
  if (callerGone?.aborted) return Promise.resolve({ kind: 'aborted' });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const slept = new Promise<WaitEvent>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'slept' }), ms);
  });
  const aborted = new Promise<WaitEvent>((resolve) => {
    if (callerGone === undefined) return;
    onAbort = () => resolve({ kind: 'aborted' });
    callerGone.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([message.then((outcome): WaitEvent => ({ kind: 'message', outcome })), aborted, slept]).finally(() => {
    clearTimeout(timer);
    if (onAbort !== undefined) callerGone?.removeEventListener('abort', onAbort);
  });
}
