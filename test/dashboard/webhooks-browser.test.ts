/**
 * The Webhooks page in Chromium against the real `npm start` (dist/embedded.js), a loopback
 * receiver allowed through WEBHOOK_ALLOW_CIDRS: an owner adds an endpoint, its signing secret is
 * shown once and gone from the page when the dialog closes, a test event reaches the receiver
 * signed with that secret and appears in the delivery list as delivered with its response code;
 * a viewer sees the list with no manage buttons. Screenshots at 375 and 1440 px go to
 * artifacts/dashboard/ (as test/dashboard/pages.test.ts), failing on sideways scrolling.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { setPasswordFromLink, startService, watchedPage, type RunningService } from '../helpers/dashboard-e2e.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

const ARTIFACTS = path.join(import.meta.dirname, '..', '..', 'artifacts', 'dashboard');
const PASSWORD = 'correct horse battery staple';

let service: RunningService;
let browser: Browser;
let rx: Receiver;

beforeAll(async () => {
  [service, browser, rx] = await Promise.all([
    startService({ WEBHOOK_ALLOW_CIDRS: '127.0.0.1', WEBHOOK_POLL_MS: '50', SECRETS_KEY: '' }),
    launchChromium(),
    startReceiver(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await rx?.close();
});

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} scrolls sideways at ${width}px`).toBeLessThanOrEqual(
      width,
    );
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
  }
}

describe('the Webhooks page', () => {
  it('adds an endpoint, shows its secret once, sends a test event and lists the delivery; a viewer manages nothing', async () => {
    const { page, problems, context } = await watchedPage(browser, 1440);
    await setPasswordFromLink(page, service.setupLink, PASSWORD, 'admin');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No endpoints yet.').waitFor();

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await dialog.getByLabel('URL').fill(rx.url('/dash'));
    await dialog.getByLabel('Description (optional)').fill('Billing service');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect.poll(() => dialog.getByLabel('Signing secret').inputValue(), { timeout: 10_000 }).toMatch(/^whsec_/);
    const secret = await dialog.getByLabel('Signing secret').inputValue();
    await shot(page, 'webhooks-secret');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'Billing service' }).waitFor();
    // Shown once: gone from the page, and never in what the API lists.
    expect(await page.content()).not.toContain(secret);
    expect(await page.evaluate(() => document.body.innerText)).not.toContain('whsec_');

    await page.getByRole('button', { name: `Send a test event to ${rx.url('/dash')}` }).click();
    const [received] = await waitFor(() => rx.received.length === 1 && rx.received);
    expect(new Webhook(secret).verify(received!.body, received!.headers)).toMatchObject({ type: 'webhook.test' });
    // The list shows it once its outcome is recorded (Refresh re-reads it).
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return page.locator('table', { has: page.locator('caption', { hasText: 'Recent deliveries' }) }).innerText();
        },
        { timeout: 10_000 },
      )
      .toMatch(/webhook\.test \(test\)[\s\S]*delivered[\s\S]*200[\s\S]*\d+ ms/);
    expect(await page.getByRole('button', { name: /^Replay delivery / }).count()).toBe(1);
    await shot(page, 'webhooks');
    expect(problems).toEqual([]);

    // A viewer: the same lists, no manage buttons.
    const accountId = await page.evaluate(
      async () =>
        ((await (await fetch('/dashboard/api/me')).json()) as { memberships: Array<{ accountId: string }> }).memberships[0]!.accountId,
    );
    await context.close();
    const created = await service.admin('users', 'create', '--account', accountId, '--email', 'viewer@example.com', '--role', 'viewer');
    const link = /One-time link \(valid until \S+, works once\): (\S+)/.exec(created)![1]!;
    const viewer = await watchedPage(browser, 375);
    await setPasswordFromLink(viewer.page, link, PASSWORD, 'admin');
    await viewer.page.goto(`${service.base}/dashboard/webhooks`);
    await viewer.page.getByRole('cell', { name: 'Billing service' }).waitFor();
    expect(await viewer.page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: /^Send a test event/ }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: /^Replay delivery/ }).count()).toBe(0);
    expect(viewer.problems).toEqual([]);
    await viewer.context.close();
  });
});
