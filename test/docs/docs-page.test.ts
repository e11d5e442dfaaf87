/**
 * /docs in headless Chromium, as a person uses it: the page loads Swagger UI from this server
 * only (every request the page makes is recorded and must stay on the server's origin), under its
 * Content-Security-Policy with no violation and no console error; every operation of the served
 * /openapi.json is on the page; a "Try it out" call with an API key reaches the live server and
 * shows SHA-224("abc"); the Authorize dialog opens on the X-API-Key field, first, visible and
 * focused; summaries are plain text; every guide renders. Screenshots at 375 px and 1440 px go to
 * artifacts/docs/ (git-ignored), and no page scrolls sideways at 375 px.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { getJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { ROOT } from '../helpers/spawn.js';
import { SHA224_ABC } from '../helpers/digests.js';

const ARTIFACTS = path.join(ROOT, 'artifacts', 'docs');
const WIDTHS = [375, 1440] as const;
const ABC = SHA224_ABC;
const GUIDES = readdirSync(path.join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => f.slice(0, -3));

interface Operation {
  method: string;
  path: string;
}

interface Watched {
  page: Page;
  /** Every URL the page requested. */
  requests: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** securitypolicyviolation events: `directive blocked-uri`. */
  violations(): Promise<string[]>;
}

let server: TestServer;
let browser: Browser;
let operations: Operation[];
/** The security scheme that sends an API key in X-API-Key, by its name in the document. */
let headerKeyScheme: string;

async function openWatched(url: string, width: number): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  // Init scripts are injected by the browser itself, outside the page's CSP.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  await page.goto(url);
  return {
    page,
    requests,
    errors,
    violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
  };
}

/** The page's width beyond the viewport (0 when nothing scrolls sideways). */
function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

async function expectClean(w: Watched): Promise<void> {
  expect(await w.violations()).toEqual([]);
  expect(w.errors).toEqual([]);
  const origin = new URL(server.url).origin;
  const elsewhere = w.requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'));
  expect(elsewhere).toEqual([]);
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startTestServer();
  const { body } = await getJson(`${server.url}/openapi.json`);
  const doc = body as {
    paths: Record<string, Record<string, unknown>>;
    components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
  };
  const schemes = Object.entries(doc.components.securitySchemes);
  headerKeyScheme = schemes.find(([, s]) => s.type === 'apiKey' && s.in === 'header' && s.name?.toLowerCase() === 'x-api-key')![0];
  const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  operations = Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.keys(item)
      .filter((m) => methods.has(m))
      .map((m) => ({ method: m.toUpperCase(), path: p })),
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('/docs API reference in Chromium', () => {
  for (const width of WIDTHS) {
    it(`shows every operation of /openapi.json at ${width} px, from this origin only, under its CSP`, async () => {
      const w = await openWatched(`${server.url}/docs`, width);
      try {
        const { page } = w;
        expect(operations.length).toBeGreaterThan(10);
        await page
          .locator('.opblock')
          .nth(operations.length - 1)
          .waitFor();
        const shown = await page.$$eval('.opblock', (blocks) =>
          blocks.map((b) => ({
            method: b.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '',
            path: b.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
          })),
        );
        const key = (o: Operation): string => `${o.method} ${o.path}`;
        expect(shown.map(key).sort()).toEqual(operations.map(key).sort());
        for (const o of operations) {
          const block = page.locator('.opblock', { has: page.locator(`.opblock-summary-path[data-path="${o.path}"]`) }).filter({
            has: page.locator('.opblock-summary-method', { hasText: new RegExp(`^${o.method}$`) }),
          });
          await expect.poll(() => block.isVisible(), { message: key(o) }).toBe(true);
        }
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(ARTIFACTS, `reference-${width}.png`), fullPage: true });
        await expectClean(w);
      } finally {
        await w.page.close();
      }
    });
  }

  it('runs "Try it out" for POST /v2/hash against the live server with the key given to Authorize', async () => {
    const w = await openWatched(`${server.url}/docs`, 1440);
    try {
      const { page } = w;
      await page.locator('.btn.authorize').click();
      const scheme = page.locator('.modal-ux form', { has: page.locator('h4 code', { hasText: new RegExp(`^${headerKeyScheme}$`) }) });
      await scheme.locator('input').fill(server.keys.production);
      await scheme.locator('button.authorize').click();
      await page.locator('.modal-ux .close-modal').click();

      const operation = page
        .locator('#operations-default-post_v2_hash, .opblock-post:has(.opblock-summary-path[data-path="/v2/hash"])')
        .first();
      await operation.locator('.opblock-summary').first().click();
      await operation.locator('.try-out__btn').click();
      await operation.locator('textarea.body-param__text').fill('{"data":"abc"}');
      const answered = page.waitForResponse((r) => r.url() === `${server.url}/v2/hash` && r.request().method() === 'POST');
      await operation.locator('.execute').click();
      const response = await answered;
      expect(response.status()).toBe(200);
      expect(response.request().headers()['x-api-key']).toBe(server.keys.production);
      const shown = operation.locator('.live-responses-table .response-col_description pre').first();
      await expect.poll(async () => (await shown.textContent()) ?? '').toContain(ABC);
      const body = JSON.parse((await shown.textContent()) ?? '{}') as { hash?: string; success?: boolean };
      expect(body).toMatchObject({ success: true, hash: ABC });
      await shown.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, 'try-it-1440.png') });
      await expectClean(w);
    } finally {
      await w.page.close();
    }
  });
});

describe('/docs for a first reader', () => {
  for (const width of WIDTHS) {
    it(`Authorize opens at ${width} px on the X-API-Key field: listed first, focused and in view; the session cookie last`, async () => {
      const w = await openWatched(`${server.url}/docs`, width);
      try {
        const { page } = w;
        await page.locator('.btn.authorize').click();
        const names = page.locator('.modal-ux form h4 code');
        await names.last().waitFor();
        const focusedScheme = (): Promise<string | null> =>
          page.evaluate(() => document.activeElement?.closest('form')?.querySelector('h4 code')?.textContent ?? null);
        await expect.poll(focusedScheme).toBe(headerKeyScheme);
        const listed = await names.allTextContents();
        expect(listed.slice(0, 3)).toEqual([headerKeyScheme, 'BearerApiKey', 'ApiKeyQuery']);
        expect(listed.at(-1)).toBe('dashboardSession');
        // In view: the point at the field's centre is the field itself (not scrolled away, not covered).
        const inView = await page.evaluate(() => {
          const field = document.activeElement as HTMLElement;
          const r = field.getBoundingClientRect();
          const x = r.left + r.width / 2;
          const y = r.top + r.height / 2;
          return { tag: field.tagName, hit: document.elementFromPoint(x, y) === field, within: y > 0 && y < window.innerHeight };
        });
        expect(inView).toEqual({ tag: 'INPUT', hit: true, within: true });
        await page.screenshot({ path: path.join(ARTIFACTS, `authorize-${width}.png`) });
        await expectClean(w);
      } finally {
        await w.page.close();
      }
    });
  }

  it('shows operation summaries as plain text and the version of package.json', async () => {
    const w = await openWatched(`${server.url}/docs`, 1440);
    try {
      const { page } = w;
      const batch = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/v2/batch"]') });
      await expect
        .poll(async () => (await batch.locator('.opblock-summary-description').textContent()) ?? '')
        .toBe('Hash up to 1000 items; ?async=true answers 202 with a job');
      const summaries = await page.$$eval('.opblock-summary-description', (all) => all.map((e) => e.textContent ?? ''));
      expect(summaries.filter((t) => t.includes('`'))).toEqual([]);
      const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
      await expect.poll(async () => (await page.locator('.info .title .version').first().textContent())?.trim()).toBe(version);
      const { body } = await getJson(`${server.url}/asyncapi.json`);
      expect((body as { info: { version: string } }).info.version).toBe(version);
      await expectClean(w);
    } finally {
      await w.page.close();
    }
  });
});

describe('/docs guides in Chromium', () => {
  for (const width of WIDTHS) {
    it(`renders every docs/*.md at ${width} px without sideways scrolling or script`, async () => {
      for (const name of ['', ...GUIDES.map((g) => `/${g}`)]) {
        const w = await openWatched(`${server.url}/docs/guides${name}`, width);
        try {
          const { page } = w;
          await page.locator('main h1').first().waitFor();
          expect(await page.locator('script').count()).toBe(0);
          expect(await sidewaysOverflow(page), `guide ${name || 'index'} at ${width}px`).toBeLessThanOrEqual(0);
          if (name === '' || name === '/realtime' || name === '/limits') {
            await page.screenshot({ path: path.join(ARTIFACTS, `guide-${name.slice(1) || 'index'}-${width}.png`), fullPage: false });
          }
          await expectClean(w);
        } finally {
          await w.page.close();
        }
      }
    });
  }
});
