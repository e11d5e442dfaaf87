/** The dashboard build: hashed names, precompressed copies that decode to their files, SRI, no inline script or style. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard, type BuiltFile } from '../../api/dashboard/build.js';
import { escapeHtml, loadConsentTemplate, renderConsentPage } from '../../api/dashboard/consent-page.js';

let dir: string;
let files: BuiltFile[];
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sha224d-dashboard-'));
  files = await buildDashboard(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dashboard build', () => {
  it('writes content-hashed assets, the three templates and a manifest with SRI', () => {
    const assets = readdirSync(path.join(dir, 'assets'))
      .filter((f) => !/\.(gz|br)$/.test(f))
      .sort();
    expect(assets).toHaveLength(3);
    for (const a of assets) expect(a).toMatch(/^(app\.[0-9a-f]{12}\.(js|css)|favicon\.[0-9a-f]{12}\.svg)$/);
    for (const a of assets) {
      const hash = /\.([0-9a-f]{12})\./.exec(a)![1];
      expect(
        createHash('sha256')
          .update(readFileSync(path.join(dir, 'assets', a)))
          .digest('hex')
          .slice(0, 12),
      ).toBe(hash);
    }
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.files.map((f: { path: string }) => f.path).sort()).toEqual(
      [...assets.map((a) => `assets/${a}`), 'consent.html', 'index.html', 'oauth-error.html'].sort(),
    );
    for (const f of manifest.files) {
      expect(f.integrity).toBe(
        `sha384-${createHash('sha384')
          .update(readFileSync(path.join(dir, f.path)))
          .digest('base64')}`,
      );
    }
  });

  it('precompresses every file with gzip and brotli, each decoding to the file', () => {
    for (const f of files) {
      const body = readFileSync(path.join(dir, f.path));
      expect(gunzipSync(readFileSync(path.join(dir, `${f.path}.gz`))).equals(body), f.path).toBe(true);
      expect(brotliDecompressSync(readFileSync(path.join(dir, `${f.path}.br`))).equals(body), f.path).toBe(true);
      expect(f.brotli).toBeLessThan(f.bytes);
    }
  });

  it('has no inline script, inline style or third-party URL in the pages, and references assets with integrity', () => {
    for (const page of ['index.html', 'consent.html', 'oauth-error.html']) {
      const html = readFileSync(path.join(dir, page), 'utf8');
      expect(html, page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
      expect(html, page).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
      expect(html, page).not.toMatch(/https?:\/\//);
      expect(html, page).not.toContain('{{app.');
      for (const m of html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g))
        expect(readdirSync(path.join(dir, 'assets'))).toContain(path.basename(m[1]!));
    }
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).toMatch(
      /<script type="module" src="\/dashboard\/assets\/app\.[0-9a-f]{12}\.js" integrity="sha384-/,
    );
  });

  it('bundles no schema library into the browser code (the contract is imported as types only)', () => {
    const js = readdirSync(path.join(dir, 'assets')).find((f) => f.endsWith('.js'))!;
    const code = readFileSync(path.join(dir, 'assets', js), 'utf8');
    expect(code).not.toMatch(/ZodError|zod-to-openapi|_zod/);
    expect(code.length).toBeLessThan(80_000);
  });
});

describe('consent page', () => {
  it('escapes every value, repeats the request in hidden fields with the CSRF token, and lets the form post to the redirect origin', () => {
    const page = renderConsentPage(loadConsentTemplate(path.join(dir, 'consent.html')), {
      appName: '<img src=x onerror=alert(1)>',
      accountName: 'Acme & Co',
      userEmail: 'ada@example.com',
      redirectUri: 'https://app.example.com:8443/cb?x=1',
      scopes: ['hash:create', 'usage:read'],
      action: '/oauth/authorize',
      fields: { client_id: 's224c_abc', state: '"><script>', redirect_uri: 'https://app.example.com:8443/cb?x=1' },
      csrfToken: 'tok"en',
    });
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain(escapeHtml('<img src=x onerror=alert(1)>'));
    expect(page.html).toContain('Acme &#38; Co');
    expect(page.html).toContain('app.example.com:8443');
    expect(page.html).toContain('Compute SHA-224 hashes');
    expect(page.html).toContain('See your plan, your usage and your limits');
    expect(page.html.match(/name="csrf_token" value="tok&#34;en"/g)).toHaveLength(2);
    expect(page.html.match(/name="state" value="&#34;&#62;&#60;script&#62;"/g)).toHaveLength(2);
    expect(page.html).toMatch(/name="decision" value="approve"/);
    expect(page.html).toMatch(/name="decision" value="deny"/);
    expect(page.html).not.toMatch(/\{\{/);
    expect(page.contentSecurityPolicy).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self' https://app.example.com:8443",
    );
  });
});
