import type { Duplex } from 'node:stream';
import type { ServiceError } from '../../shared/errors.js';
import { rawErrorResponse } from '../http/raw-response.js';
import { WS_PATH } from './paths.js';

/**
 * An upgrade refused with an HTTP answer in the envelope of `target`'s generation, then closed.
 * Free of `ws` and socket.io, so the node refuses upgrades before either is loaded (index.ts).
 */
export function refuseUpgrade(socket: Duplex, err: ServiceError, target: string | undefined = WS_PATH): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(rawErrorResponse(err, target));
  setTimeout(() => socket.destroy(), 1000).unref();
}
