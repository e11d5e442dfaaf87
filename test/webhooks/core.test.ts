import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { checkAddress, parseCidrList } from '../../shared/net/address-policy.js';
import { jobEvent } from '../../shared/webhooks/events.js';
import { DEFAULT_RETRY_SCHEDULE_MS, nextDelayMs, parseRetryAfter, parseRetrySchedule } from '../../shared/webhooks/schedule.js';
import { generateSecret, parseSecretsKey, SecretBox, secretKeyBytes } from '../../shared/webhooks/secrets.js';
import { openSecretBox } from '../../shared/webhooks/secrets-key.js';
import { signatureMatches, signedHeaders } from '../../shared/webhooks/signature.js';

describe('signing (Standard Webhooks v1)', () => {
  it('signs "{id}.{timestamp}.{body}" with HMAC-SHA256 of the decoded secret, as node:crypto computes it', () => {
    const key = Buffer.alloc(32, 7);
    const secret = `whsec_${key.toString('base64')}`;
    const body = '{"type":"job.completed"}';
    const headers = signedHeaders([secret], 'msg_1', 1_700_000_000, body);
    const expected = createHmac('sha256', key).update(`msg_1.1700000000.${body}`).digest('base64');
    expect(headers).toEqual({ 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'webhook-signature': `v1,${expected}` });
  });

  it('passes standardwebhooks 1.1.1 Webhook.verify, and fails it when the body changes', () => {
    const secret = generateSecret();
    const body = JSON.stringify({ type: 'job.completed', data: { job_id: 'j' } });
    const headers = signedHeaders([secret], 'msg_abc', Math.floor(Date.now() / 1000), body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow(/No matching signature/);
  });

  it('lists one entry per secret during a rotation; either secret verifies', () => {
    const [oldSecret, newSecret] = [generateSecret(), generateSecret()];
    const body = '{}';
    const ts = Math.floor(Date.now() / 1000);
    const headers = signedHeaders([newSecret, oldSecret], 'msg_r', ts, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(body, { ...headers })).toEqual({});
    expect(new Webhook(newSecret).verify(body, { ...headers })).toEqual({});
    expect(signatureMatches(oldSecret, headers['webhook-signature'], 'msg_r', ts, body)).toBe(true);
    expect(signatureMatches(generateSecret(), headers['webhook-signature'], 'msg_r', ts, body)).toBe(false);
  });

  it('makes whsec_ + base64 of 32 random bytes, and refuses malformed or short secrets', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKeyBytes(secret)).toHaveLength(32);
    expect(() => secretKeyBytes(`whsec_${Buffer.alloc(8).toString('base64')}`)).toThrow(/24-64 bytes/);
    expect(() => secretKeyBytes('whsec_abc-_def')).toThrow(/base64/);
  });
});

describe('secrets at rest (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('opens what it sealed, only for the same endpoint', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('whsec_x', 'ep_1');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('whsec_x');
    expect(box.open(sealed, 'ep_1')).toBe('whsec_x');
    expect(() => box.open(sealed, 'ep_2')).toThrow(/cannot be opened/);
    expect(box.seal('whsec_x', 'ep_1')).not.toBe(sealed); // a fresh IV each time
  });

  it('opens with SECRETS_KEY_PREVIOUS after a key rotation, and not without it', () => {
    const sealedUnderOld = new SecretBox(key).seal('whsec_y', 'ep');
    const next = randomBytes(32);
    expect(new SecretBox(next, key).open(sealedUnderOld, 'ep')).toBe('whsec_y');
    expect(() => new SecretBox(next).open(sealedUnderOld, 'ep')).toThrow(/cannot be opened/);
  });

  it('reads SECRETS_KEY as 64 hex digits or base64 of 32 bytes', () => {
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(() => parseSecretsKey('short')).toThrow(/32 bytes/);
  });
});

describe('retry schedule', () => {
  it('defaults to the Standard Webhooks schedule and parses a squeezed one', () => {
    expect(parseRetrySchedule('0,5s,5m,30m,2h,5h,10h,10h')).toEqual(DEFAULT_RETRY_SCHEDULE_MS);
    expect(parseRetrySchedule('0, 50ms, 100')).toEqual([0, 50, 100]);
    expect(() => parseRetrySchedule('0,soon')).toThrow(/soon/);
  });

  it('jitters ±10 %, honours a longer Retry-After, and ends when the schedule does', () => {
    const s = [0, 5000, 300_000];
    expect(nextDelayMs(s, 1, undefined, () => 0)).toBe(4500);
    expect(nextDelayMs(s, 1, undefined, () => 1)).toBe(5500);
    expect(nextDelayMs(s, 1, 60_000, () => 0.5)).toBe(60_000);
    expect(nextDelayMs(s, 1, 1_000, () => 0.5)).toBe(5000);
    expect(nextDelayMs(s, 1, 86_400_000, () => 0.5)).toBe(36_000_000); // capped at 10 h
    expect(nextDelayMs(s, 3, undefined)).toBeUndefined();
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('events', () => {
  it('a completed job carries its digest; a failed one its error', () => {
    const done = jobEvent({ id: 'j1', kind: 'file', accountId: 'a', state: 'completed', result: { digest: 'ab', size: 3 }, finishedAt: 0 });
    expect(done).toEqual({
      type: 'job.completed',
      timestamp: '1970-01-01T00:00:00.000Z',
      data: { job_id: 'j1', kind: 'file', status: 'completed', hash: 'ab', size: 3 },
    });
    const failed = jobEvent({
      id: 'j2',
      kind: 'url',
      accountId: 'a',
      state: 'failed',
      error: { code: 'URL_NOT_ALLOWED', message: 'no' },
      finishedAt: 0,
    });
    expect(failed.type).toBe('job.failed');
    expect(failed.data).toEqual({ job_id: 'j2', kind: 'url', status: 'failed', error: { code: 'URL_NOT_ALLOWED', message: 'no' } });
  });
});

describe('WEBHOOK_ALLOW_CIDRS in the address policy', () => {
  it('allows a private or loopback address only inside a listed range', () => {
    expect(checkAddress('127.0.0.1').allowed).toBe(false);
    expect(checkAddress('127.0.0.1', { allowCidrs: ['127.0.0.0/8'] }).allowed).toBe(true);
    expect(checkAddress('::ffff:127.0.0.1', { allowCidrs: ['127.0.0.1'] }).allowed).toBe(true);
    expect(checkAddress('10.0.0.1', { allowCidrs: ['127.0.0.0/8'] })).toEqual({ allowed: false, rule: 'private' });
    expect(parseCidrList(' 10.0.0.0/8, ::1 ,')).toEqual(['10.0.0.0/8', '::1']);
    expect(() => parseCidrList('10.0.0.0/33')).toThrow(/10.0.0.0\/33/);
  });
});

describe('the embedded key file', () => {
  it('is made once (mode 0600) by concurrent starts, and every later start reads the same key', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sha224d-key-'));
    const config = { SECRETS_KEY: undefined, SECRETS_KEY_PREVIOUS: undefined, mode: 'embedded' as const, dataDir };
    const boxes = await Promise.all(Array.from({ length: 4 }, () => openSecretBox(config)));
    const sealed = boxes[0]!.seal('whsec_same', 'ep');
    for (const box of [...boxes, await openSecretBox(config)]) expect(box!.open(sealed, 'ep')).toBe('whsec_same');
    expect(statSync(path.join(dataDir, 'secrets.key')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir)).toEqual(['secrets.key']);
  });

  it('is not made in distributed mode: no SECRETS_KEY, no webhooks', async () => {
    expect(
      await openSecretBox({ SECRETS_KEY: undefined, SECRETS_KEY_PREVIOUS: undefined, mode: 'distributed', dataDir: '/nonexistent' }),
    ).toBeUndefined();
  });
});
