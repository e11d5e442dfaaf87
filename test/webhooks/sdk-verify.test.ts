/** The TypeScript SDK's verifyWebhook: cross-checked with the server's signer and the standardwebhooks package. */
import { spawnSync } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../api/clients/typescript/src/index.js';
import { generateSecret } from '../../shared/webhooks/secrets.js';
import { signedHeaders } from '../../shared/webhooks/signature.js';
import { ROOT } from '../helpers/spawn.js';

const body = JSON.stringify({ type: 'job.completed', timestamp: '2030-01-01T00:00:00.000Z', data: { job_id: 'j', hash: 'ab' } });
const now = () => Math.floor(Date.now() / 1000);

describe('verifyWebhook (TypeScript SDK)', () => {
  it('accepts what the server signs, as a plain object, a fetch Headers and raw bytes', async () => {
    const secret = generateSecret();
    const headers = signedHeaders([secret], 'msg_1', now(), body);
    await expect(verifyWebhook(secret, headers, body)).resolves.toEqual(JSON.parse(body));
    await expect(verifyWebhook(secret, new Headers({ ...headers }), body)).resolves.toMatchObject({ type: 'job.completed' });
    await expect(verifyWebhook(secret, { 'Webhook-Id': 'msg_1', ...headers }, new TextEncoder().encode(body))).resolves.toMatchObject({
      data: { hash: 'ab' },
    });
  });

  it('accepts what standardwebhooks 1.1.1 signs, and either secret during a rotation', async () => {
    const secret = generateSecret();
    const at = new Date();
    const signature = new Webhook(secret).sign('msg_2', at, body);
    const headers = { 'webhook-id': 'msg_2', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
    await expect(verifyWebhook(secret, headers, body)).resolves.toMatchObject({ type: 'job.completed' });
    const older = generateSecret();
    const rotated = signedHeaders([secret, older], 'msg_3', now(), body);
    await expect(verifyWebhook(older, rotated, body)).resolves.toBeDefined();
    await expect(verifyWebhook(secret, rotated, body)).resolves.toBeDefined();
  });

  it.each([
    ['a changed body', (h: Record<string, string>) => [h, `${body} `] as const, /No matching signature/],
    ['another webhook-id', (h: Record<string, string>) => [{ ...h, 'webhook-id': 'msg_x' }, body] as const, /No matching signature/],
    [
      'a timestamp 6 minutes old',
      (h: Record<string, string>) => [{ ...h, 'webhook-timestamp': String(now() - 360) }, body] as const,
      /tolerance/,
    ],
    [
      'a millisecond timestamp',
      (h: Record<string, string>) => [{ ...h, 'webhook-timestamp': String(Date.now()) }, body] as const,
      /tolerance/,
    ],
    [
      'no signature header',
      (h: Record<string, string>) => [{ 'webhook-id': h['webhook-id']!, 'webhook-timestamp': h['webhook-timestamp']! }, body] as const,
      /Missing/,
    ],
    [
      'only unknown versions',
      (h: Record<string, string>) => [{ ...h, 'webhook-signature': `v1a,${h['webhook-signature']!.slice(3)}` }, body] as const,
      /No matching/,
    ],
  ])('refuses %s', async (_, change, message) => {
    const secret = generateSecret();
    const headers = { ...signedHeaders([secret], 'msg_4', now(), body) };
    const [h, b] = change(headers);
    const err = await verifyWebhook(secret, h, b).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookVerificationError);
    expect((err as Error).message).toMatch(message);
  });

  it('refuses the right signature under the wrong secret', async () => {
    const headers = signedHeaders([generateSecret()], 'msg_5', now(), body);
    await expect(verifyWebhook(generateSecret(), headers, body)).rejects.toThrow(WebhookVerificationError);
  });
});

describe('verify_webhook (Python SDK)', () => {
  it('accepts what the server signs and refuses it under another secret', () => {
    const secret = generateSecret();
    const headers = signedHeaders([generateSecret(), secret], 'msg_py', now(), body);
    const script = [
      'import json, sys',
      "sys.path.insert(0, 'api/clients/python/src')",
      'from sha224d import verify_webhook, WebhookVerificationError',
      'case = json.load(sys.stdin)',
      "event = verify_webhook(case['secret'], case['headers'], case['body'].encode())",
      'try:',
      "    verify_webhook(case['other'], case['headers'], case['body'])",
      '    refused = False',
      'except WebhookVerificationError:',
      '    refused = True',
      "print(json.dumps({'event': event, 'refused': refused}))",
    ].join('\n');
    const run = spawnSync('python3', ['-c', script], {
      cwd: ROOT,
      input: JSON.stringify({ secret, other: generateSecret(), headers, body }),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ event: JSON.parse(body), refused: true });
  });
});
