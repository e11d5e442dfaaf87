/**
 * Browser consent at GET|POST /oauth/authorize (docs/auth.md "Authorizing an application"): the
 * resource owner is a person signed in to the dashboard, an admin or owner of the Enterprise
 * account that registered the client (api/sessions/policy.ts, 'oauth.consent').
 *
 *   no session        → 303 to /dashboard/sign-in, which returns here afterwards;
 *   a consent (grant) of this person for this client already holding every requested scope
 *                     → a code at once, no page;
 *   otherwise         → the consent page (api/dashboard/consent-page.ts); its Approve and Deny
 *                       forms post back here with the session's CSRF token and a same-origin Origin.
 *
 * Approving records the consent (the union of the scopes ever approved, one row per account,
 * client and person); every code and token issued under it carries its id, so revoking it in the
 * dashboard revokes them. A request whose client or redirect URI is not valid is never redirected
 * (RFC 6749 §4.1.2.1): a browser gets a page saying so (./consent-refusals.ts) before anyone is asked
 * to sign in; other callers get the library's OAuth envelope.
 */
import path from 'node:path';
import type { Request, Response } from 'express';
import { OAUTH_SCOPES, type OAuthUser } from './server/model.js';
import type { OAuthServerStore } from '../../shared/store/oauth-server-types.js';
import { isOAuthSecret } from '../../shared/oauth/tokens.js';
import { withoutCredentials } from '../../shared/auth/url-credentials.js';
import { isServiceError } from '../../shared/errors.js';
import type { AccountStore } from '../../shared/store/types.js';
import { PAGE_HEADERS } from '../dashboard/serve.js';
import { loadConsentTemplate, renderConsentPage } from '../dashboard/consent-page.js';
import { assertCsrf, CSRF_FORM_FIELD, csrfToken } from '../sessions/csrf.js';
import { can } from '../sessions/policy.js';
import { activeSession, allowedOrigins } from '../sessions/request-session.js';
import { consentRefusals, wantsPage, type ConsentRefusal, type RefusalPage } from './consent-refusals.js';

export interface ConsentDeps {
  store: AccountStore;
  oauthStore: OAuthServerStore;
  /** The built dashboard (dist/dashboard), for the consent template. */
  dashboardDir: string;
  publicUrl: string | undefined;
  /** Answers a refusal with a page (./consent-refusals.ts). */
  refuse: RefusalPage;
  now?: () => Date;
}

/** What the authorization endpoint does next. */
export type ConsentOutcome =
  | { kind: 'answered' }
  /** Let the library answer a script's invalid client or redirect URI in the OAuth envelope (never redirected). */
  | { kind: 'library' }
  /** Issue a code for this owner (the library still validates scope and PKCE and redirects). */
  | { kind: 'issue'; user: OAuthUser; params: Record<string, string> }
  /** Redirect access_denied to the client. */
  | { kind: 'deny'; params: Record<string, string> };

/** The dashboard's sign-in page; it returns to `returnTo` (same origin only) afterwards. */
const SIGN_IN_PATH = '/dashboard/sign-in';
/** Fields of the consent forms that are not OAuth parameters. */
const FORM_ONLY = new Set([CSRF_FORM_FIELD, 'decision', 'allowed']);

export function createConsentFlow(deps: ConsentDeps): (req: Request, res: Response) => Promise<ConsentOutcome> {
  const now = deps.now ?? (() => new Date());
  let template: string | undefined;

  return async function consent(req, res) {
    const source = (req.method === 'GET' ? req.query : (req.body ?? {})) as Record<string, string>;
    const params = Object.fromEntries(Object.entries(source).filter(([name]) => !FORM_ONLY.has(name)));
    const refuse = (refusal: ConsentRefusal): ConsentOutcome => {
      deps.refuse(res, refusal);
      return { kind: 'answered' };
    };
    // An invalid client or redirect URI is never redirected to (RFC 6749 §4.1.2.1): a browser gets a
    // page saying so, anything else the library's OAuth envelope.
    const invalid = (refusal: ConsentRefusal): ConsentOutcome => (wantsPage(req) ? refuse(refusal) : { kind: 'library' });
    const clientId = params.client_id ?? '';
    const found = isOAuthSecret('clientId', clientId) ? await deps.oauthStore.findClient(clientId) : undefined;
    if (!found) return invalid(consentRefusals.unknownApplication());
    const client = found.client;
    // The library's checks (exact match; RFC 6749 §3.1.2.3 wants redirect_uri when several are registered).
    const redirectUri = params.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
    if (redirectUri === undefined) return invalid(consentRefusals.missingRedirect(client.name));
    if (!client.redirectUris.includes(redirectUri)) return invalid(consentRefusals.unregisteredRedirect(client.name));

    const active = await activeSession(req, deps.store, now());
    if (!active) {
      // Back here after signing in, with the same request (a POST's form fields become the query),
      // less any credential it carried (shared/auth/url-credentials.ts).
      const back = `${req.baseUrl}${req.path}?${withoutCredentials(params).toString()}`;
      res.redirect(303, `${SIGN_IN_PATH}?returnTo=${encodeURIComponent(back)}`);
      return { kind: 'answered' };
    }
    if (req.method === 'POST') {
      try {
        assertCsrf(
          { method: 'POST', origin: req.get('origin'), secFetchSite: req.get('sec-fetch-site'), presentedToken: source[CSRF_FORM_FIELD] },
          { token: active.token, id: active.session.id },
          allowedOrigins(req, deps.publicUrl),
        );
      } catch (err) {
        if (!isServiceError(err)) throw err;
        return refuse(consentRefusals.answerNotFromConsentPage());
      }
    }

    const [membership, account] = await Promise.all([
      deps.store.users.getMembership(client.accountId, active.user.id),
      deps.store.getAccount(client.accountId),
    ]);
    if (!membership || !account || !can(membership.role, 'oauth.consent')) {
      return refuse(consentRefusals.notAllowedToAuthorize(client.name, active.user.email));
    }

    const scopes = [...new Set((params.scope ?? '').split(' ').filter(Boolean))];
    const scopesValid = scopes.length > 0 && scopes.every((s) => OAUTH_SCOPES.includes(s));
    const owner = (consentId: string | null): ConsentOutcome => ({
      kind: 'issue',
      user: { accountId: client.accountId, consentId },
      params,
    });
    // Unknown or missing scopes: the library refuses them (invalid_scope, redirected) before saving anything.
    if (!scopesValid) return owner(null);

    if (req.method === 'POST') {
      const decision = source.decision;
      if (decision === 'deny') return { kind: 'deny', params };
      if (decision !== 'approve') return refuse(consentRefusals.noDecision());
      const grant = await deps.store.oauthGrants.upsert({
        accountId: client.accountId,
        clientId: client.id,
        userId: active.user.id,
        scope: scopes,
        now: now(),
      });
      return owner(grant.id);
    }

    const grant = await deps.store.oauthGrants.find(client.accountId, client.id, active.user.id);
    if (grant && scopes.every((s) => grant.scope.includes(s))) {
      await deps.store.oauthGrants.touch(grant.id, now());
      return owner(grant.id);
    }
    template ??= loadConsentTemplate(path.join(deps.dashboardDir, 'consent.html'));
    const page = renderConsentPage(template, {
      appName: client.name,
      accountName: account.name,
      userEmail: active.user.email,
      redirectUri,
      scopes,
      action: `${req.baseUrl}${req.path}`,
      fields: params,
      csrfToken: csrfToken(active.token, active.session.id),
    });
    for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
    res.setHeader('Content-Security-Policy', page.contentSecurityPolicy);
    res.status(200).type('text/html; charset=utf-8').send(page.html);
    return { kind: 'answered' };
  };
}
