/**
 * What the Chromium tests against a real `npm start` (dist/embedded.js) share: the service on a
 * fresh data directory with its first-start link, the admin CLI (dist/admin.js) on the same data,
 * pages watched for console errors and CSP refusals, screenshots that fail on sideways scrolling,
 * and the dashboard's sign-in and set-password steps. Screenshots go to test/artifacts/<dir>/
 * (gitignored).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ROOT, spawnEntry, spawnNode, type SpawnedProcess } from './spawn.js';

export interface RunningService {
  proc: SpawnedProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  /** The first start's one-time link for admin@localhost, owner of the Enterprise account "admin". */
  setupLink: string;
  /** Runs `npm run admin -- <args>` on this service's data; resolves with its output, failing on a non-zero exit. */
  admin(...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startService(env: Record<string, string> = {}): Promise<RunningService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-browser-e2e-'));
  const proc = spawnEntry('embedded', { DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', ...env });
  const base = (await proc.waitFor(/listening on (http:\/\/[\d.:]+)/))[1]!;
  const setupLink = (await proc.waitFor(/within 24 hours \(the link works once\): (\S+)/))[1]!;
  return {
    proc,
    base,
    setupLink,
    async admin(...args) {
      // PORT: the links the CLI prints name this service (docs/operating.md, PUBLIC_URL unset).
      const cli = spawnNode('admin', [path.join(ROOT, 'dist', 'admin.js'), ...args], {
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT: new URL(base).port,
      });
      const code = await cli.exited;
      if (code !== 0) throw new Error(`admin ${args.join(' ')} exited ${code}:\n${cli.output()}`);
      return cli.output();
    },
    async stop() {
      await proc.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A page and what went wrong on it: console errors (except `expected`) and CSP refusals, uncaught exceptions. */
export interface Watched {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

/**
 * A new page in `context`, or in a new one `width` px wide. `expected` names console errors a test
 * provokes on purpose; by default the 401 of the session check before sign-in, which Chromium logs
 * as a failed load.
 */
export async function watchedPage(
  browser: Browser,
  width: number,
  options: { context?: BrowserContext; expected?: RegExp } = {},
): Promise<Watched> {
  const context = options.context ?? (await browser.newContext({ viewport: { width, height: 900 } }));
  const expected = options.expected ?? /status of 401/;
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if ((m.type() === 'error' && !expected.test(m.text())) || /Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { context, page, problems };
}

/** Writes test/artifacts/<dir>/<name>-<width>.png (full page) once the page is idle; fails if it scrolls sideways. */
export async function shoot(page: Page, dir: string, name: string, width: number): Promise<string> {
  const folder = path.join(ROOT, 'test', 'artifacts', dir);
  fs.mkdirSync(folder, { recursive: true });
  if (page.viewportSize()?.width !== width) await page.setViewportSize({ width, height: 900 });
  await page.waitForLoadState('networkidle');
  // From the top: a full-page capture draws sticky parts (the side navigation) where the viewport
  // was scrolled to, half-way down the picture, after a click low on the page.
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} scrolls sideways at ${width}px`).toBeLessThanOrEqual(
    width,
  );
  const file = path.join(folder, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Signs in on the dashboard's page and waits for the overview, whose heading is the account's name. */
export async function signIn(page: Page, base: string, email: string, password: string, accountName: string): Promise<void> {
  await page.goto(`${base}/dashboard/sign-in`);
  await fillSignIn(page, email, password);
  await page.getByRole('heading', { name: accountName, level: 1 }).waitFor();
}

/** Fills and sends the sign-in form the page shows (the dashboard's own, or the one a consent request was sent to). */
export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens a one-time link (first start, `users create`), chooses `password` and waits to be signed in to the overview. */
export async function setPasswordFromLink(page: Page, link: string, password: string, accountName: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('New password, again').fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('heading', { name: accountName, level: 1 }).waitFor();
}
