import { ServiceError } from '../../shared/errors.js';
import type { CallerWatch } from '../../shared/trace.js';

/**
 * The caller of one request: its AbortController is built only when something asks for the
 * signal (a synchronous job sent to the queue), not for every request; if the caller left
 * before that, the signal is born aborted.
 */
export class ResponseCallerWatch implements CallerWatch {
  private controller: AbortController | undefined;
  private goneReason: ServiceError | undefined;

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.goneReason !== undefined) this.controller.abort(this.goneReason);
    }
    return this.controller.signal;
  }

  gone(): void {
    this.goneReason = new ServiceError('INVALID_INPUT', { message: 'Request was aborted', details: 'the client closed the connection' });
    this.controller?.abort(this.goneReason);
  }
}
