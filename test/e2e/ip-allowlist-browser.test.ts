/**
 * The account IP allow-list (docs/api.md "Authentication" rule 6) in Chromium against the real `npm start`:
 * the owner of a Pro account (made with the admin CLI, as an operator does) saves a list on the
 * dashboard's settings page that leaves out 127.0.0.1, and a page calling the API with the
 * account's client key is refused 403 IP_NOT_ALLOWED; adding 127.0.0.1/32 lets the same call
 * through. The owner of a Free account is told on the same page that the feature needs Pro, and
 * saving a list is refused. Settings pages are written at 375 and 1440 px to
 * test/artifacts/ip-allowlist-e2e/ (gitignored), with no console error, CSP refusal or sideways
 * scrolling.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveStatic, type StaticServer } from '../helpers/chromium.js';
import { setPasswordFromLink, shoot, startService, watchedPage, type RunningService } from '../helpers/dashboard-e2e.js';
import { SHA224_ABC as ABC } from '../helpers/digests.js';

const ARTIFACTS = 'ip-allowlist-e2e';
const PASSWORD = 'allow-list in chromium password';
/** SHA-224("abc"), FIPS 180-4 example. */
const PLAN_NOTICE = 'IP allow-listing is available on the Pro and Enterprise plans.';

let service: RunningService;
let browser: Browser;
let site: StaticServer;
let siteOrigin: string;

interface Owner {
  accountName: string;
  setupLink: string;
}

/** An account on `plan` with an owner who has not chosen a password yet, as an operator makes them. */
async function accountWithOwner(plan: 'free' | 'pro', accountName: string): Promise<Owner & { accountId: string }> {
  const accountId = /^(acc_[\w-]+)$/m.exec(await service.admin('accounts', 'create', '--name', accountName, '--plan', plan))![1]!;
  const created = await service.admin('users', 'create', '--account', accountId, '--email', `${plan}.owner@example.com`, '--role', 'owner');
  return { accountId, accountName, setupLink: /One-time link \(valid until \S+, works once\): (\S+)/.exec(created)![1]! };
}

let pro: Owner & { accountId: string };
let free: Owner;
let clientKey: string;

beforeAll(async () => {
  [service, browser, site] = await Promise.all([
    startService(),
    launchChromium(),
    // The customer's site: another origin (localhost, not 127.0.0.1), whose page calls the API.
    serveStatic({
      '/': { body: '<!doctype html><title>Widget</title><link rel="icon" href="data:," /><h1>Widget</h1>', type: 'text/html' },
    }),
  ]);
  siteOrigin = site.origin.replace('127.0.0.1', 'localhost');
  [pro, free] = await Promise.all([accountWithOwner('pro', 'Pro account'), accountWithOwner('free', 'Free account')]);
  const key = await service.admin(
    'keys',
    'create',
    '--account',
    pro.accountId,
    '--type',
    'client',
    '--domains',
    'localhost',
    '--description',
    'Widget',
  );
  clientKey = /API key: (s224_\w+)/.exec(key)![1]!;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await service?.stop();
});

/** POST /v2/hash {"data":"abc"} with the client key, from the customer's page; what the page can read of the answer. */
function hashFromPage(widget: Page): Promise<{ status: number; body: { hash?: string; error?: unknown } }> {
  return widget.evaluate(
    async ({ api, key }) => {
      const res = await fetch(`${api}/v2/hash`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ data: 'abc' }),
      });
      return { status: res.status, body: (await res.json()) as { hash?: string; error?: unknown } };
    },
    { api: service.base, key: clientKey },
  );
}

/** Replaces the list on the settings page and sends it; resolves with the status of the PUT. */
async function saveAllowList(page: Page, entries: string[]): Promise<number> {
  await page.getByLabel('Addresses and ranges').fill(entries.join('\n'));
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/ip-allowlist') && r.request().method() === 'PUT'),
    page.getByRole('button', { name: 'Save allow-list' }).click(),
  ]);
  return response.status();
}

/** The list the settings page shows (after a save, once the page has drawn the saved list again). */
const shownList = (page: Page): Promise<string> => page.getByLabel('Addresses and ranges').inputValue();

describe('the account IP allow-list in Chromium against npm start', () => {
  it('Pro: a list without 127.0.0.1 refuses the page 403 IP_NOT_ALLOWED; adding 127.0.0.1/32 lets it through', async () => {
    const { context, page, problems } = await watchedPage(browser, 1440);
    await setPasswordFromLink(page, pro.setupLink, PASSWORD, pro.accountName);
    const widget = await context.newPage();
    await widget.goto(siteOrigin);
    // The key works before any list, so the refusal below is the list's doing.
    expect(await hashFromPage(widget)).toEqual({ status: 200, body: expect.objectContaining({ hash: ABC }) });

    await page.goto(`${service.base}/dashboard/settings`);
    await page.getByRole('heading', { name: 'Account IP allow-list' }).waitFor();
    expect(await page.getByText(PLAN_NOTICE).count()).toBe(0);
    expect(await saveAllowList(page, ['10.1.2.3/8'])).toBe(200);
    await expect.poll(() => shownList(page)).toBe('10.0.0.0/8'); // canonical form
    expect(await hashFromPage(widget)).toEqual({
      status: 403,
      body: expect.objectContaining({
        error: {
          code: 'IP_NOT_ALLOWED',
          message: "The request's IP address is not on the credential's IP allow-list",
          details: "requests from 127.0.0.1 are not on the account's IP allow-list",
        },
      }),
    });
    for (const width of [1440, 375]) await shoot(page, ARTIFACTS, 'settings-pro', width);

    expect(await saveAllowList(page, ['10.0.0.0/8', '127.0.0.1/32'])).toBe(200);
    await expect.poll(() => shownList(page)).toBe('10.0.0.0/8\n127.0.0.1');
    expect(await hashFromPage(widget)).toEqual({ status: 200, body: expect.objectContaining({ hash: ABC }) });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Free: the settings page says the feature needs Pro, and saving a list is refused', async () => {
    // The refused save is a 403 Chromium logs as a failed load.
    const { context, page, problems } = await watchedPage(browser, 1440, { expected: /status of (401|403)/ });
    await setPasswordFromLink(page, free.setupLink, PASSWORD, free.accountName);
    await page.goto(`${service.base}/dashboard/settings`);
    await page.getByText(PLAN_NOTICE).waitFor();
    expect(await saveAllowList(page, ['10.0.0.0/8'])).toBe(403);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('IP allow-listing is available on the Pro and Enterprise plans');
    for (const width of [1440, 375]) await shoot(page, ARTIFACTS, 'settings-free', width);
    // Nothing was saved: a fresh page shows the empty list.
    await page.reload();
    await page.getByText(PLAN_NOTICE).waitFor();
    expect(await shownList(page)).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });
});
