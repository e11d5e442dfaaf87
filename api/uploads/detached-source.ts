import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

/**
 * A stream fed from `source` that can be abandoned without destroying the request: when the
 * blob store refuses the bytes (FILE_TOO_LARGE) we still need the socket to send the 413.
 * A client that disconnects mid-body fails the stream instead of leaving it hanging.
 */
export function detachedSource(req: IncomingMessage, source: Readable = req): PassThrough {
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  source.pipe(out);
  const onClose = (): void => {
    if (!req.complete) out.destroy(new Error('client closed the connection before the body ended'));
  };
  req.once('close', onClose);
  out.once('close', () => {
    req.off('close', onClose);
    source.unpipe(out);
  });
  return out;
}
