/** The operator token guard of the queue UI and its configuration, in process. */
import express from 'express';
import { describe, expect, it } from 'vitest';
import { operatorAuth, presentedToken } from '../../api/admin/operator-auth.js';
import { queueBoardEnabled } from '../../api/admin/queue-board.js';
import { loadConfig } from '../../shared/config.js';
import { redactJobData } from '../../shared/queue/redact.js';

const TOKEN = 't'.repeat(32);
const basic = (credentials: string): string => `Basic ${Buffer.from(credentials).toString('base64')}`;

describe('presentedToken', () => {
  it.each([
    [`Bearer ${TOKEN}`, TOKEN],
    [`bearer  ${TOKEN} `, TOKEN],
    [basic(`ops:${TOKEN}`), TOKEN],
    [basic(`:${TOKEN}`), TOKEN],
    [basic(`ops:with:colons`), 'with:colons'],
    [basic(TOKEN), undefined],
    ['Bearer', undefined],
    ['Bearer a b', undefined],
    ['Token abc', undefined],
    ['Basic !!!', undefined],
    [undefined, undefined],
  ])('%s → %s', (header, expected) => {
    expect(presentedToken(header)).toBe(expected);
  });
});

describe('operatorAuth', () => {
  it('passes the token and refuses anything else with 401 and both challenges', async () => {
    const app = express();
    app.use(operatorAuth(TOKEN), (_req, res) => void res.json({ ok: true }));
    app.use((err: { code?: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(401).json({ code: err.code });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    try {
      const get = (authorization?: string) =>
        fetch(`http://127.0.0.1:${port}/`, { headers: authorization === undefined ? {} : { authorization } });
      expect((await get(`Bearer ${TOKEN}`)).status).toBe(200);
      expect((await get(basic(`anyone:${TOKEN}`))).status).toBe(200);
      for (const wrong of [undefined, `Bearer ${TOKEN}x`, `Bearer ${'t'.repeat(31)}`, `Bearer ${'u'.repeat(32)}`, basic(`${TOKEN}:x`)]) {
        const res = await get(wrong);
        expect(res.status, String(wrong)).toBe(401);
        expect(await res.json()).toEqual({ code: 'UNAUTHORIZED' });
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="sha224d operators", Basic realm=/);
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
    } finally {
      server.close();
    }
  });
});

describe('ADMIN_TOKEN and ADMIN_QUEUE_WRITE', () => {
  it('ADMIN_TOKEN is at least 32 characters; empty means unset; the UI needs it and REDIS_URL', () => {
    expect(() => loadConfig({ ADMIN_TOKEN: 'short' })).toThrow(/ADMIN_TOKEN/);
    expect(loadConfig({ ADMIN_TOKEN: '' }).ADMIN_TOKEN).toBeUndefined();
    expect(loadConfig({}).ADMIN_QUEUE_WRITE).toBe(false);
    expect(loadConfig({ ADMIN_QUEUE_WRITE: 'true' }).ADMIN_QUEUE_WRITE).toBe(true);
    expect(queueBoardEnabled(loadConfig({ ADMIN_TOKEN: TOKEN }))).toBe(false);
    expect(queueBoardEnabled(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }))).toBe(false);
    expect(queueBoardEnabled(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', ADMIN_TOKEN: TOKEN }))).toBe(true);
  });
});

describe('redactJobData', () => {
  it('keeps sizes, drops inputs, keys and URL queries; leaves other values alone', () => {
    expect(
      redactJobData({
        kind: 'hmac',
        accountId: 'a',
        payload: { data: 'abcd', encoding: 'utf8', key: 'k', keyEncoding: 'utf8' },
      }),
    ).toEqual({
      kind: 'hmac',
      accountId: 'a',
      payload: { data: '[4 characters]', encoding: 'utf8', key: '[redacted]', keyEncoding: 'utf8' },
    });
    expect(redactJobData({ kind: 'batch', payload: { items: [{ id: '1', data: 'x' }], parallel: true } })).toEqual({
      kind: 'batch',
      payload: { items: '[1 item]', parallel: true },
    });
    expect(redactJobData({ kind: 'url', payload: { url: 'https://u:p@example.com/a/b?token=s#f', timeoutMs: 5 } })).toEqual({
      kind: 'url',
      payload: { url: 'https://example.com/a/b', timeoutMs: 5 },
    });
    expect(redactJobData({ payload: { url: 'not a url', data: 7 } })).toEqual({ payload: { url: '[redacted]', data: '[redacted]' } });
    expect(redactJobData('plain')).toBe('plain');
    expect(redactJobData(null)).toBeNull();
  });
});
