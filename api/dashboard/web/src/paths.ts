/**
 * The dashboard's page paths under /dashboard: the browser's router renders them, and the API node
 * (api/dashboard/serve.ts) answers any other path with 404 and the same shell, whose router then
 * shows the not-found page.
 */
export const PAGE_PATHS = {
  overview: '/',
  keys: '/keys',
  usage: '/usage',
  oauthApps: '/oauth-apps',
  authorizedApps: '/authorized-apps',
  sandbox: '/sandbox',
  webhooks: '/webhooks',
  settings: '/settings',
  signIn: '/sign-in',
  setPassword: '/set-password',
} as const;

/** Whether `rel` (the path after /dashboard, trailing slashes removed; '' for the root) names a page. */
export function isPagePath(rel: string): boolean {
  return (Object.values(PAGE_PATHS) as string[]).includes(rel === '' ? '/' : rel);
}
