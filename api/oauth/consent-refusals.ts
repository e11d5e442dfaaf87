/**
 * The refusals /oauth/authorize shows a person in a browser instead of answering the application:
 * what each page says and its status. RFC 6749 §4.1.2.1: when the client or the redirect URI is not
 * valid, the server informs the resource owner and must not redirect, so these are pages, never
 * redirects. Statuses are those the endpoint answers scripts (the OAuth envelope, ./errors.ts) for
 * the same request; the text is plain and carries no internal detail.
 */
import type { Request, Response } from 'express';
import { loadOAuthErrorTemplate, renderOAuthErrorPage, type OAuthErrorPageInput } from '../dashboard/oauth-error-page.js';
import { PAGE_HEADERS } from '../dashboard/serve.js';

export interface ConsentRefusal extends OAuthErrorPageInput {
  status: number;
}

const NOTHING_SHARED = 'Nothing was shared with any application.';
const TELL_DEVELOPER = 'If a website or app sent you here, tell its developer. You can close this page.';

export const consentRefusals = {
  /** client_id missing, malformed or not registered (the library's invalid_request / invalid_client, 400). */
  unknownApplication: (): ConsentRefusal => ({
    status: 400,
    title: 'Unknown application',
    explanation: `The link that brought you here does not name an application registered with this service, so there is nothing to authorize. ${NOTHING_SHARED}`,
    nextStep: TELL_DEVELOPER,
  }),
  /** redirect_uri not among the client's registered ones (the library's invalid_client, 400). */
  unregisteredRedirect: (appName: string): ConsentRefusal => ({
    status: 400,
    title: 'Return address not registered',
    explanation: `${appName} asked to send you back to an address it has not registered with this service. For your safety you were not sent there. ${NOTHING_SHARED}`,
    nextStep: `Tell the developer of ${appName}. You can close this page.`,
  }),
  /**
   * No redirect_uri while the client registered several: RFC 6749 §3.1.2.3 requires it then (the
   * library would pick the first one), so there is no address to answer to.
   */
  missingRedirect: (appName: string): ConsentRefusal => ({
    status: 400,
    title: 'Return address missing',
    explanation: `${appName} has several return addresses registered with this service and the link does not say which one to use, so you were not sent anywhere. ${NOTHING_SHARED}`,
    nextStep: `Tell the developer of ${appName}. You can close this page.`,
  }),
  /** An Approve or Deny without the session's CSRF token or from another origin (api/sessions/csrf.ts). */
  answerNotFromConsentPage: (): ConsentRefusal => ({
    status: 403,
    title: 'This answer could not be checked',
    explanation:
      'Your answer did not come from the consent page of this session (the page may be out of date, or another site sent it), so nothing was approved or denied.',
    nextStep: 'Go back to the application and start again.',
  }),
  /** The person is signed in but is not an admin or owner of the client's account ('oauth.consent'). */
  notAllowedToAuthorize: (appName: string, email: string): ConsentRefusal => ({
    status: 403,
    title: `You cannot authorize ${appName}`,
    explanation: `Only an admin or owner of the account that registered ${appName} can authorize it. You are signed in as ${email}.`,
    nextStep: 'Ask an admin or owner of that account, or sign in as one of them.',
  }),
  /** A posted answer that is neither approve nor deny. */
  noDecision: (): ConsentRefusal => ({
    status: 400,
    title: 'Approve or deny',
    explanation: 'The answer must be Approve or Deny.',
    nextStep: 'Go back to the application and start again.',
  }),
  /** Any other refusal of a browser's request before its client was checked (a repeated parameter, a body that does not parse). */
  malformedRequest: (status: number): ConsentRefusal => ({
    status,
    title: 'This link is not valid',
    explanation: `The authorization request that brought you here is malformed, so there is nothing to authorize. ${NOTHING_SHARED}`,
    nextStep: TELL_DEVELOPER,
  }),
} as const;

/**
 * Whether the caller is a browser navigating (its Accept ranks text/html above JSON, RFC 9110
 * §12.5.1), which gets the page; fetch, curl and OAuth libraries, which accept any type or ask for
 * JSON, keep the envelope they parse.
 */
export function wantsPage(req: Request): boolean {
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}

export type RefusalPage = (res: Response, refusal: ConsentRefusal) => void;

/** Sends refusals as pages of the built dashboard (`dashboardDir`); the template is read when first needed. */
export function refusalPages(dashboardDir: string): RefusalPage {
  let template: string | undefined;
  return function sendRefusalPage(res, refusal) {
    template ??= loadOAuthErrorTemplate(dashboardDir);
    for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
    res.status(refusal.status).type('text/html; charset=utf-8').send(renderOAuthErrorPage(template, refusal));
  };
}
