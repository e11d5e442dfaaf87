/**
 * The OAuth consent page (GET /oauth/authorize when the person must decide): the built template
 * dist/dashboard/consent.html, filled with escaped values. It names the application, the account
 * and person it would act for, the host it will redirect to, and each requested scope in words; two
 * forms post Approve or Deny back to the authorization endpoint with the OAuth request's parameters
 * and the session's CSRF token.
 *
 * Its Content-Security-Policy allows form submission to this origin and to the redirect URI's
 * origin: browsers apply `form-action` to the redirect that follows a form post (Chromium does), so
 * `form-action 'self'` alone would block the answer on its way back to the application.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scopeInWords } from '../management/scopes.js';

export const CONSENT_TEMPLATE_PATH = path.join(import.meta.dirname, '..', '..', 'dist', 'dashboard', 'consent.html');

export interface ConsentPageInput {
  appName: string;
  accountName: string;
  userEmail: string;
  redirectUri: string;
  scopes: readonly string[];
  /** Where the forms post: the authorization endpoint's path. */
  action: string;
  /** The OAuth request's parameters, repeated as hidden fields (client_id, redirect_uri, state, …). */
  fields: Readonly<Record<string, string>>;
  csrfToken: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderConsentPage(template: string, input: ConsentPageInput): { html: string; contentSecurityPolicy: string } {
  const redirect = new URL(input.redirectUri);
  const hidden = Object.entries({ ...input.fields, csrf_token: input.csrfToken })
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}" />`)
    .join('');
  const items = input.scopes
    .map((s) => `<li><span class="scope-name">${escapeHtml(s)}</span> ${escapeHtml(scopeInWords(s))}</li>`)
    .join('');
  const text: Record<string, string> = {
    app_name: input.appName,
    account_name: input.accountName,
    user_email: input.userEmail,
    redirect_host: redirect.host,
    action: input.action,
  };
  const html = template
    .replace('{{{scope_items}}}', items)
    .replaceAll('{{{hidden_fields}}}', hidden)
    .replace(/\{\{(\w+)\}\}/g, (whole, key: string) => (key in text ? escapeHtml(text[key]!) : whole));
  const contentSecurityPolicy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    `form-action 'self' ${redirect.origin}`,
  ].join('; ');
  return { html, contentSecurityPolicy };
}

export function loadConsentTemplate(file = CONSENT_TEMPLATE_PATH): string {
  return readFileSync(file, 'utf8');
}
