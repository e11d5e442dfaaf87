/** The logger never writes the dashboard's secrets: session cookies, passwords, shown-once secrets, CSRF tokens. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/log.js';

describe('log redaction', () => {
  it('censors cookies, passwords, client secrets and CSRF tokens at the top level and one level down', () => {
    let out = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const logger = createLogger('info', sink);
    const secrets = ['s224s_cookie', 'hunter2hunter2', 'n3w-passw0rd!!', 's224cs_secret', 'csrf-123', 's224s_setcookie'];
    logger.info({
      req: { headers: { cookie: `sha224d_session=${secrets[0]}` } },
      res: { headers: { 'set-cookie': `sha224d_session=${secrets[5]}` } },
      body: { currentPassword: secrets[1], newPassword: secrets[2], clientSecret: secrets[3], csrfToken: secrets[4] },
    });
    logger.info({ password: secrets[1], clientSecret: secrets[3], csrfToken: secrets[4] });
    for (const s of secrets) expect(out).not.toContain(s);
    expect(out.match(/\[redacted\]/g)?.length).toBe(9);
  });
});
