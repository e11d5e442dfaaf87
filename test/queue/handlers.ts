/**
 * Scriptable job handlers for the queue tests. A hash job's `data` is a small command:
 *   "sleep:<ms>:<tag>"   wait, then succeed
 *   "hold:<tag>"         wait until release(tag), then succeed
 *   "invalid:<tag>"      permanent failure (INVALID_INPUT, with details)
 *   "upstream:<tag>"     final failure with a 5xx code (URL_FETCH_FAILED, the upstream answered 404)
 *   "crash:<tag>"        internal failure (a plain Error: retried, then INTERNAL_ERROR)
 *   "flaky:<n>:<tag>"    SERVICE_UNAVAILABLE for the first n calls, then succeed
 *   anything else        succeed at once
 * Success returns the SHA-224 of `data`. File jobs hash their blob; filename "reject" fails permanently.
 * `calls` counts invocations per data string (per blob key for file jobs), from the moment a
 * handler starts; `jobIds` names the job that last ran each hash data string.
 */
import { invalidInput, ServiceError } from '../../shared/errors.js';
import { sha224Hex, sha224Stream } from '../../shared/hashing/sha224.js';
import type { DigestResult, JobKind } from '../../shared/jobs/contracts.js';
import type { JobHandlers } from '../../shared/queue/types.js';
import { stallFor } from '../helpers/wait.js';

export interface TestHandlers {
  handlers: JobHandlers;
  calls: Map<string, number>;
  jobIds: Map<string, string>;
  /** Lets "hold:<tag>" jobs finish (those already holding and those to come). */
  release(tag: string): void;
}

export function digestOf(data: string): DigestResult {
  return { digest: sha224Hex(data), size: Buffer.byteLength(data) };
}

export function createTestHandlers(): TestHandlers {
  const calls = new Map<string, number>();
  const jobIds = new Map<string, string>();
  const count = (key: string): number => {
    const n = (calls.get(key) ?? 0) + 1;
    calls.set(key, n);
    return n;
  };
  const gates = new Map<string, { opened: Promise<void>; open: () => void }>();
  const gate = (tag: string) => {
    let found = gates.get(tag);
    if (found === undefined) {
      let open: () => void = () => undefined;
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      found = { opened, open };
      gates.set(tag, found);
    }
    return found;
  };
  const unused = (kind: JobKind) => (): Promise<never> => Promise.reject(new Error(`test handler for ${kind} not implemented`));

  const handlers: JobHandlers = {
    hash: async ({ data }, { jobId }) => {
      const n = count(data);
      jobIds.set(data, jobId);
      const [command, arg] = data.split(':');
      switch (command) {
        case 'sleep':
          await stallFor(Number(arg)); // the scripted job's running time: the test's input
          break;
        case 'hold':
          await gate(String(arg)).opened;
          break;
        case 'invalid':
          throw invalidInput('data', 'data is not acceptable');
        case 'upstream':
          throw new ServiceError('URL_FETCH_FAILED', { details: 'upstream status 404' });
        case 'crash':
          throw new Error('secret internal detail');
        case 'flaky':
          if (n <= Number(arg)) throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'try again' });
          break;
        default:
          break;
      }
      return digestOf(data);
    },
    file: async ({ blob, filename }, ctx) => {
      count(blob.key);
      const { digest, size } = await sha224Stream(await ctx.blobs.get(blob.key));
      if (filename === 'reject') throw invalidInput('file', 'file rejected');
      return { digest: digest.toString('hex'), size };
    },
    hmac: unused('hmac'),
    verify: unused('verify'),
    batch: unused('batch'),
    stream: unused('stream'),
    url: unused('url'),
  };
  return { handlers, calls, jobIds, release: (tag) => gate(tag).open() };
}
