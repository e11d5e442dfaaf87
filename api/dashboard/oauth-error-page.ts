/**
 * The page a person sees when /oauth/authorize refuses a browser request without sending it back to
 * the application (an unknown client, an unregistered redirect URI: RFC 6749 §4.1.2.1 says to tell
 * the resource owner and never redirect; a consent answer that fails the CSRF check): the built
 * template dist/dashboard/oauth-error.html, in the consent page's style, filled with escaped text.
 * No script and no inline style, so it runs under the dashboard's CSP (api/dashboard/serve.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { escapeHtml } from './consent-page.js';

export const OAUTH_ERROR_TEMPLATE = 'oauth-error.html';

export interface OAuthErrorPageInput {
  /** What went wrong, in a few words (the heading and the document title). */
  title: string;
  /** What happened, in plain words, with no internal detail. */
  explanation: string;
  /** What the person can do now. */
  nextStep: string;
}

export function renderOAuthErrorPage(template: string, input: OAuthErrorPageInput): string {
  const text: Record<string, string> = { title: input.title, explanation: input.explanation, next_step: input.nextStep };
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => (key in text ? escapeHtml(text[key]!) : whole));
}

/** Reads the template from the built dashboard (`dashboardDir`, normally dist/dashboard). */
export function loadOAuthErrorTemplate(dashboardDir: string): string {
  return readFileSync(path.join(dashboardDir, OAUTH_ERROR_TEMPLATE), 'utf8');
}
