/**
 * The queue UI (bull-board) at /admin/queues, for operators of distributed mode:
 *   - served only when REDIS_URL and ADMIN_TOKEN are set; otherwise nothing is mounted and the
 *     path is the service's ordinary 404 (embedded mode has no BullMQ queues to show);
 *   - every request, page, assets and JSON API alike, presents ADMIN_TOKEN (operator-auth.ts);
 *   - read-only unless ADMIN_QUEUE_WRITE=true (bull-board answers 405 to changes);
 *   - bull-board is imported on the first authorized request, so nodes without the UI, and
 *     nodes where nobody opens it, never load it.
 * Its pages get their own Content-Security-Policy, relaxed only as bull-board needs
 * (docs/decisions.md "Operating").
 */
import { Router, type RequestHandler, type Response } from 'express';
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/log.js';
import { operatorAuth } from './operator-auth.js';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * Scripts, styles, images and API calls from this origin only. Relaxed for bull-board alone:
 * `style-src 'unsafe-inline'`, because its React UI and its loading page set inline styles (no
 * script runs inline; its configuration is a JSON data block). `base-uri 'self'`: the page
 * carries a <base href> to its mount path.
 */
export const QUEUE_BOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function queueBoardEnabled(config: Pick<Config, 'redis' | 'ADMIN_TOKEN'>): boolean {
  return config.redis !== undefined && config.ADMIN_TOKEN !== undefined;
}

function boardHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', QUEUE_BOARD_CSP);
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Robots-Tag', 'noindex');
  // Queue contents are live and operator-only: no cache may keep them.
  res.setHeader('Cache-Control', 'no-store');
}

/** The /admin/queues router; mount it only when queueBoardEnabled(config). */
export function queueBoard(config: Config, logger: Logger): RequestHandler {
  const { redis: redisUrl, ADMIN_TOKEN: token } = config;
  if (redisUrl === undefined || token === undefined) throw new Error('queueBoard needs REDIS_URL and ADMIN_TOKEN');
  const router = Router();
  let board: Promise<RequestHandler> | undefined;
  const load = (): Promise<RequestHandler> => {
    board ??= import('./queue-board-ui.js').then((ui) =>
      ui.createQueueBoard({
        redisUrl,
        prefix: config.QUEUE_PREFIX,
        basePath: QUEUE_BOARD_PATH,
        readOnly: !config.ADMIN_QUEUE_WRITE,
        logger,
      }),
    );
    // A failed import or setup is retried by the next request rather than cached.
    board.catch(() => (board = undefined));
    return board;
  };
  router.use(operatorAuth(token), async function serveQueueBoard(req, res, next) {
    boardHeaders(res);
    const handler = await load();
    handler(req, res, next);
  });
  return router;
}
