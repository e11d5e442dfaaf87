/**
 * OAuth consent in Chromium against the real `npm start`: the owner registers an application on the
 * dashboard's OAuth applications page; the application (oauth4webapi, a standard client, with PKCE)
 * sends a fresh browser to /oauth/authorize; the person signs in, reads the consent page and clicks
 * Approve, and the browser lands on the application's redirect URI (a loopback server recording
 * what it was sent) with a code and the same state; the code buys a token that hashes "abc". Deny
 * lands there with error=access_denied. A request with an unregistered redirect URI gets the
 * refusal page and stays on this service. Pages are written at 375 and 1440 px to
 * test/artifacts/oauth-consent-e2e/ (gitignored), with no console error, CSP refusal or sideways
 * scrolling.
 *
 * `npm start` serves plain HTTP on loopback, so oauth4webapi is given its documented
 * `allowInsecureRequests`; its conformance over HTTPS is test/auth/oauth4webapi.test.ts's job.
 */
import * as oauth from 'oauth4webapi';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveStatic, type StaticServer } from '../helpers/chromium.js';
import { fillSignIn, setPasswordFromLink, shoot, startService, watchedPage, type RunningService } from '../helpers/dashboard-e2e.js';
import { SHA224_ABC as ABC } from '../helpers/digests.js';

const ARTIFACTS = 'oauth-consent-e2e';
const PASSWORD = 'consent in chromium password';
const ADMIN = 'admin@localhost';
const APP_NAME = 'Release checker';
/** SHA-224("abc"), FIPS 180-4 example. */
const insecure = { [oauth.allowInsecureRequests]: true };

let service: RunningService;
let browser: Browser;
let app: StaticServer;
let redirectUri: string;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let clientAuth: oauth.ClientAuth;
/** The owner's signed-in page (from the first-start link), used to register the application, and what went wrong on it. */
let ownerPage: Page;
let ownerProblems: string[];

beforeAll(async () => {
  [service, browser, app] = await Promise.all([
    startService(),
    launchChromium(),
    serveStatic({
      // No favicon to fetch (and miss): a 404 would be a console error.
      '/callback': {
        body: '<!doctype html><title>Release checker</title><link rel="icon" href="data:," /><h1>Back at the application</h1>',
        type: 'text/html',
      },
    }),
  ]);
  redirectUri = `${app.origin}/callback`;
  const issuer = new URL(service.base);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));

  // The owner registers the application on the dashboard; the secret is shown once, in the dialog.
  ({ page: ownerPage, problems: ownerProblems } = await watchedPage(browser, 1440));
  await setPasswordFromLink(ownerPage, service.setupLink, PASSWORD, 'admin');
  await ownerPage.goto(`${service.base}/dashboard/oauth-apps`);
  await ownerPage.getByRole('button', { name: 'Register application' }).click();
  const dialog = ownerPage.getByRole('dialog', { name: 'Register an OAuth application' });
  await dialog.getByLabel('Name').fill(APP_NAME);
  await dialog.getByLabel('Redirect URIs').fill(redirectUri);
  await dialog.getByRole('button', { name: 'Register' }).click();
  await dialog.getByLabel('Client secret').waitFor();
  client = { client_id: await dialog.getByLabel('Client ID').inputValue() };
  clientAuth = oauth.ClientSecretBasic(await dialog.getByLabel('Client secret').inputValue());
  await dialog.getByRole('button', { name: 'Done' }).click();
  await ownerPage.getByRole('cell', { name: APP_NAME, exact: true }).waitFor();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await service?.stop();
});

interface AuthorizationRequest {
  url: string;
  state: string;
  codeVerifier: string;
}

/** The authorization URL the application sends the browser to, built from the discovered metadata. */
async function authorizationRequest(scope: string, redirect = redirectUri): Promise<AuthorizationRequest> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirect,
    scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(name, value);
  return { url: url.href, state, codeVerifier };
}

/** Clicks `button` on the consent page and returns what the application's redirect URI received. */
async function answer(page: Page, button: 'Approve' | 'Deny'): Promise<URL> {
  const before = app.requests.length;
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL((url) => url.href.startsWith(redirectUri));
  await page.getByRole('heading', { name: 'Back at the application' }).waitFor();
  const received = app.requests.slice(before).filter((u) => u.pathname === '/callback');
  expect(received).toHaveLength(1);
  expect(received[0]!.href).toBe(page.url());
  return received[0]!;
}

/** The consent page is styled by the dashboard's stylesheet (loaded under the CSP, with SRI): its card is 32rem wide at most. */
async function expectStyledCard(page: Page): Promise<void> {
  expect(await page.locator('main.card').evaluate((main) => getComputedStyle(main).maxWidth)).toBe('512px');
}

describe('OAuth consent in Chromium against npm start', () => {
  it('sign in → consent page → Approve → the redirect URI gets a code and the state → token → /v2/hash', async () => {
    const request = await authorizationRequest('hash:create usage:read');
    const { context, page, problems } = await watchedPage(browser, 1440);
    await page.goto(request.url);
    // Not signed in: the dashboard's sign-in, which comes back to the same request.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await fillSignIn(page, ADMIN, PASSWORD);
    await page.getByRole('heading', { name: `Authorize ${APP_NAME}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/oauth/authorize');
    await expect.poll(() => page.locator('main').textContent()).toContain('wants to use the account admin as you (admin@localhost)');
    expect(await page.locator('.host').textContent()).toBe(new URL(redirectUri).host);
    expect(await page.locator('.scope-name').allTextContents()).toEqual(['hash:create', 'usage:read']);
    await expectStyledCard(page);
    for (const width of [1440, 375]) await shoot(page, ARTIFACTS, 'consent', width);

    const callback = await answer(page, 'Approve');
    expect(callback.searchParams.get('state')).toBe(request.state);
    expect(callback.searchParams.get('code')).toMatch(/^s224ac_/);
    expect(callback.searchParams.get('iss')).toBe(service.base);
    // oauth4webapi checks the state and, as the metadata promises RFC 9207, the issuer.
    const params = oauth.validateAuthResponse(as, client, callback, request.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, request.codeVerifier, insecure),
    );
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'hash:create usage:read' });
    expect(tokens.access_token).toMatch(/^s224at_/);

    const hashed = await oauth.protectedResourceRequest(
      tokens.access_token,
      'POST',
      new URL(`${service.base}/v2/hash`),
      new Headers({ 'content-type': 'application/json' }),
      JSON.stringify({ data: 'abc' }),
      insecure,
    );
    expect(hashed.status).toBe(200);
    expect(((await hashed.json()) as { hash: string }).hash).toBe(ABC);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Deny → the redirect URI gets error=access_denied and the state, no code', async () => {
    // A scope not approved above, so the signed-in owner is asked again.
    const request = await authorizationRequest('jobs:read');
    await ownerPage.goto(request.url);
    await ownerPage.getByRole('heading', { name: `Authorize ${APP_NAME}` }).waitFor();
    const callback = await answer(ownerPage, 'Deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(request.state);
    expect(callback.searchParams.get('code')).toBeNull();
    expect(() => oauth.validateAuthResponse(as, client, callback, request.state)).toThrow(oauth.AuthorizationResponseError);
    expect(ownerProblems).toEqual([]);
  });

  it.each([375, 1440])('an unregistered redirect URI gets the refusal page at %i px and never leaves this service', async (width) => {
    const { url } = await authorizationRequest('hash:create', 'http://127.0.0.1:9/elsewhere');
    const { context, page, problems } = await watchedPage(browser, width, { expected: /status of 400/ });
    const before = app.requests.length;
    const response = await page.goto(url);
    expect(response?.status()).toBe(400);
    await page.getByRole('heading', { name: 'Return address not registered', level: 1 }).waitFor();
    expect(page.url()).toBe(url);
    await expect
      .poll(() => page.locator('main').textContent())
      .toContain(`${APP_NAME} asked to send you back to an address it has not registered with this service.`);
    await expectStyledCard(page);
    await shoot(page, ARTIFACTS, 'refused-redirect-uri', width);
    expect(app.requests.length).toBe(before);
    expect(problems).toEqual([]);
    await context.close();
  });
});
