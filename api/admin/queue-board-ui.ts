/**
 * bull-board over distributed mode's queues, loaded only by api/admin/queue-board.ts's dynamic
 * import. Queue names and prefixes come from shared/naming.ts as the producer and workers build
 * them; job data is shown redacted (shared/queue/redact.ts), as the admin CLI shows it.
 */
import { createBullBoard } from '@bull-board/api';
import type { IServerAdapter } from '@bull-board/api/typings/app';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Queue } from 'bullmq';
import type { Express, Request, RequestHandler, Response } from 'express';
import { QUEUE_NAMES } from '../../shared/jobs/contracts.js';
import type { Logger } from '../../shared/log.js';
import { bullQueueName } from '../../shared/naming.js';
import { bullPrefixOf } from '../../shared/queue/bullmq-wire.js';
import { redactJobData } from '../../shared/queue/redact.js';
import { createRedis, type RedisTarget } from '../../shared/queue/redis-connection.js';

export interface QueueBoardOptions {
  redisUrl: RedisTarget;
  prefix: string | undefined;
  basePath: string;
  readOnly: boolean;
  logger: Logger;
}

/** bull-board's page links a stylesheet on fonts.googleapis.com; the UI stays on this origin (system fonts instead). */
const THIRD_PARTY_STYLESHEET = /<link[^>]+href="https:\/\/fonts\.googleapis\.com[^>]*>\s*/g;

export function createQueueBoard(options: QueueBoardOptions): RequestHandler {
  const connection = createRedis(options.redisUrl, 'producer', { logger: options.logger, connectionName: 'sha224d:queue-board' });
  const adapters = QUEUE_NAMES.map((name) => {
    const queue = new Queue(bullQueueName(name), { connection, prefix: bullPrefixOf(options.prefix) });
    queue.on('error', (err: Error) => options.logger.debug({ err, queue: name }, 'queue board: bullmq queue error'));
    const adapter = new BullMQAdapter(queue, { readOnlyMode: options.readOnly, displayName: name });
    adapter.setFormatter('data', redactJobData);
    return adapter;
  });
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(options.basePath);
  // @bull-board/express 9.10.1 declares its adapter against its own copy of @bull-board/api 9.10.1,
  // whose private fields make the types distinct from 9.10.2's; the interface is the same.
  createBullBoard({
    queues: adapters,
    serverAdapter: serverAdapter as unknown as IServerAdapter,
    options: { uiConfig: { boardTitle: 'sha224d queues' } },
  });
  // Typed `any` by bull-board; it is the Express app its adapter built.
  const app = serverAdapter.getRouter() as Express;
  app.disable('x-powered-by');
  app.set('etag', false);
  return function queueBoardUi(req: Request, res: Response, next) {
    // Render the page as bull-board does, without the third-party stylesheet.
    const render = res.render.bind(res);
    res.render = (view: string, locals?: object) => {
      render(view, locals ?? {}, (err: Error | null, html?: string) => {
        if (err) next(err);
        else res.type('html').send((html ?? '').replace(THIRD_PARTY_STYLESHEET, ''));
      });
    };
    app(req, res, next);
  };
}
