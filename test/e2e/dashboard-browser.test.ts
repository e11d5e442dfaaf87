/**
 * The dashboard end to end in Chromium against the real `npm start` process (dist/embedded.js):
 * the first-start link → choose a password → sign in → create a client key for an allowed origin →
 * use it with fetch from a page on that origin → revoke it after the confirmation → 401; the usage
 * page shows the requests. Every page is written at 375 and 1440 px to test/artifacts/dashboard-e2e/
 * (gitignored), with no console error, CSP refusal or sideways scrolling.
 */
import { createHash } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveStatic, type StaticServer } from '../helpers/chromium.js';
import { shoot, signIn, startService, watchedPage, type RunningService } from '../helpers/dashboard-e2e.js';

const ARTIFACTS = 'dashboard-e2e';
const PASSWORD = 'correct horse battery staple';
const ABC = createHash('sha224').update('abc').digest('hex');

let service: RunningService;
let base: string;
let setupLink: string;
let browser: Browser;
let site: StaticServer;
let siteOrigin: string;

beforeAll(async () => {
  service = await startService({ USAGE_FLUSH_INTERVAL_MS: '200' });
  ({ base, setupLink } = service);
  // The customer's site: another origin (localhost, not 127.0.0.1), whose page calls the API.
  site = await serveStatic({ '/': { body: '<!doctype html><title>Widget</title><h1>Widget</h1>', type: 'text/html' } });
  siteOrigin = site.origin.replace('127.0.0.1', 'localhost');
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await service?.stop();
});

const ADMIN = 'admin@localhost';

describe('the dashboard against npm start', () => {
  let clientKey = '';

  it('setup link → password → sign in → client key used from its origin → revoked after confirming → 401; usage shows it', async () => {
    const first = await watchedPage(browser, 1440);
    await first.page.goto(setupLink);
    await first.page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(first.page.url()).not.toContain('#token=');
    await shoot(first.page, ARTIFACTS, 'set-password', 1440);
    await first.page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await first.page.getByLabel('New password, again').fill(PASSWORD);
    await first.page.getByRole('button', { name: 'Set password and sign in' }).click();
    await first.page.getByRole('heading', { name: 'admin', level: 1 }).waitFor();
    expect(first.problems).toEqual([]);
    await first.context.close();

    // A fresh browser: sign in with the password just chosen.
    const { context, page, problems } = await watchedPage(browser, 1440);
    await signIn(page, base, ADMIN, PASSWORD, 'admin');

    await page.goto(`${base}/dashboard/keys`);
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Type').selectOption('client');
    await dialog.getByLabel('Description').fill('Browser widget');
    await dialog.getByLabel('Allowed domains').fill('localhost');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => dialog.getByLabel('Your new key').inputValue(), { timeout: 10_000 }).toMatch(/^s224_\w+$/);
    clientKey = await dialog.getByLabel('Your new key').inputValue();
    await shoot(page, ARTIFACTS, 'keys-created-secret', 1440);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'Browser widget' }).waitFor();
    expect(await page.content()).not.toContain(clientKey);

    // The customer's page calls the API with the client key; CORS lets it read the answer.
    const widget = await context.newPage();
    await widget.goto(siteOrigin);
    const hashFromPage = (key: string) =>
      widget.evaluate(
        async ({ api, key: k }) => {
          const res = await fetch(`${api}/v2/hash`, {
            method: 'POST',
            headers: { 'X-API-Key': k, 'Content-Type': 'application/json' },
            body: JSON.stringify({ data: 'abc' }),
          });
          return { status: res.status, body: (await res.json()) as { hash?: string; error?: { code: string } } };
        },
        { api: base, key },
      );
    for (let i = 0; i < 3; i++)
      expect(await hashFromPage(clientKey)).toEqual({ status: 200, body: expect.objectContaining({ hash: ABC }) });

    // Revoking asks first; Cancel changes nothing.
    const prefix = clientKey.slice(0, 12);
    await page.getByRole('button', { name: `Revoke key ${prefix}` }).click();
    await page
      .getByRole('dialog', { name: new RegExp(`Revoke key ${prefix}`) })
      .getByRole('button', { name: 'Cancel' })
      .click();
    expect((await hashFromPage(clientKey)).status).toBe(200);
    await page.getByRole('button', { name: `Revoke key ${prefix}` }).click();
    const confirm = page.getByRole('dialog', { name: new RegExp(`Revoke key ${prefix}`) });
    await shoot(page, ARTIFACTS, 'keys-revoke-confirm', 1440);
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.getByRole('button', { name: `Revoke key ${prefix}` }).count()).toBe(0);
    const refused = await hashFromPage(clientKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error?.code).toBe('UNAUTHORIZED');

    // Usage: the four answered requests, under the key's name (counts are flushed every 200 ms).
    await expect
      .poll(
        async () => {
          await page.goto(`${base}/dashboard/usage`);
          await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
          const row = page.getByRole('row').filter({ hasText: 'Browser widget' });
          return (await row.count()) > 0 ? ((await row.first().textContent()) ?? '') : '';
        },
        { timeout: 20_000, interval: 500 },
      )
      .toMatch(/Browser widget.*API key\s*4$/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each([375, 1440])('every page renders at %i px without an error, a CSP refusal or sideways scrolling', async (width) => {
    const { context, page, problems } = await watchedPage(browser, width);
    await page.goto(`${base}/dashboard/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shoot(page, ARTIFACTS, 'sign-in', width);
    await signIn(page, base, ADMIN, PASSWORD, 'admin');
    const pages: Array<[string, string]> = [
      ['/dashboard/', 'admin'],
      ['/dashboard/keys', 'API keys'],
      ['/dashboard/usage', 'Usage'],
      ['/dashboard/oauth-apps', 'OAuth applications'],
      ['/dashboard/authorized-apps', 'Authorized applications'],
      ['/dashboard/sandbox', 'Sandbox'],
      ['/dashboard/settings', 'Settings'],
    ];
    for (const [url, heading] of pages) {
      await page.goto(base + url);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await shoot(page, ARTIFACTS, url.replace(/^\/dashboard\/?/, '').replace(/\/$/, '') || 'overview', width);
    }

    // The consent page, for an application registered through the management API.
    const registered = await page.evaluate(async () => {
      const me = (await (await fetch('/dashboard/api/me')).json()) as { csrfToken: string; memberships: Array<{ accountId: string }> };
      const res = await fetch(`/dashboard/api/accounts/${me.memberships[0]!.accountId}/oauth-apps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrfToken },
        body: JSON.stringify({ name: 'Release checker', redirectUris: ['https://release.example.com/callback'], public: false }),
      });
      return { status: res.status, body: (await res.json()) as { app: { clientId: string } } };
    });
    expect(registered.status).toBe(200);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: registered.body.app.clientId,
      redirect_uri: 'https://release.example.com/callback',
      scope: 'hash:create usage:read',
      state: 'st',
      code_challenge: createHash('sha256').update('verifier').digest('base64url'),
      code_challenge_method: 'S256',
    });
    await page.goto(`${base}/oauth/authorize?${query}`);
    await page.getByRole('heading', { name: 'Authorize Release checker' }).waitFor();
    await shoot(page, ARTIFACTS, 'consent', width);
    expect(problems).toEqual([]);
    await context.close();
  });
});
