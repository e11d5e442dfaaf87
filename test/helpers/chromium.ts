/**
 * Headless Chromium for tests and benchmarks: playwright-core driving Debian's chromium package
 * (`apt-get install -y chromium`; never `npx playwright install`). Pages are served from memory
 * on 127.0.0.1 only, so nothing leaves the machine.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

/** Fails (never skips) when Chromium is missing: CI installs it, so its absence is a broken setup. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}; run: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface StaticFile {
  body: string | Uint8Array;
  type: string;
  /** Extra response headers, e.g. a Content-Security-Policy for the page. */
  headers?: Record<string, string>;
}

export interface StaticServer {
  origin: string;
  /** Every request's URL so far, as the client addressed it (a redirect target can check what it was sent). */
  requests: URL[];
  close(): Promise<void>;
}

/** Serves `files` (path → body) from memory on an ephemeral 127.0.0.1 port; anything else is 404. */
export async function serveStatic(files: Record<string, StaticFile>): Promise<StaticServer> {
  const requests: URL[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    requests.push(url);
    const file = files[url.pathname];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { ...file.headers, 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A new page, navigated to url (normally an origin from serveStatic). */
export async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  return page;
}
