/**
 * A part of the app loaded on its first request (api/lazy.ts): served once loaded; a load that
 * fails is logged and answered with the catalog's SERVICE_UNAVAILABLE in the v2 envelope, and the
 * next request tries again.
 */
import { listenOnLoopback, type Listening } from '../helpers/listen.js';
import { PassThrough } from 'node:stream';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../api/http/error-handler.js';
import { lazyHandler } from '../../api/lazy.js';
import { createLogger } from '../../shared/log.js';

describe('lazyHandler', () => {
  const lines: string[] = [];
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  const logger = createLogger('info', sink);
  let loads = 0;
  let fail = true;
  const part: RequestHandler = (req, res) => {
    res.json({ served: req.url });
  };
  const app = express();
  app.use(
    '/part',
    lazyHandler('the test part', logger, () => {
      loads += 1;
      return fail ? Promise.reject(new Error('Cannot find module ./chunk-gone.js')) : Promise.resolve(part);
    }),
  );
  app.use(errorHandler({ logger }));
  let served: Listening;
  let base: string;
  beforeAll(async () => {
    served = await listenOnLoopback(app);
    base = served.url;
  });
  afterAll(() => served.close());

  it('a failed load answers 503 SERVICE_UNAVAILABLE in the v2 envelope and is logged', async () => {
    const res = await fetch(`${base}/part/x`);
    expect(res.status).toBe(503);
    // Every 503 says when to come back: 5 s unless the refusal names another (docs/decisions.md "Contract and shapes").
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(lines.join('')).toContain('the test part could not be loaded');
    expect(lines.join('')).toContain('chunk-gone.js');
  });

  it('the next request loads again; once loaded, the part serves every request without loading', async () => {
    fail = false;
    const before = loads;
    for (const p of ['/part/a', '/part/b?q=1']) {
      const res = await fetch(`${base}${p}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ served: p.slice('/part'.length) });
    }
    expect(loads).toBe(before + 1);
  });
});
