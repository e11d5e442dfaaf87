import type { ServerResponse } from 'node:http';

/**
 * Upload routes (multipart, raw stream) register how many body bytes they have received, so the
 * request metrics (api/middleware/http-metrics.ts) can add them to sha224d_http_upload_bytes_total
 * under the route template once the response is done. A WeakMap: nothing to clean up, no field
 * added to every response.
 */
const meters = new WeakMap<ServerResponse, () => number>();

export function meterUpload(res: ServerResponse, received: () => number): void {
  meters.set(res, received);
}

/** Bytes an upload route received for this response; 0 for every other route. */
export function uploadedBytes(res: ServerResponse): number {
  const received = meters.get(res);
  return received === undefined ? 0 : received();
}
