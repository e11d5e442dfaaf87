/**
 * Client-side routing under /dashboard: each page is a path and a render function. Links inside the
 * dashboard are intercepted and pushed to history; the account (?account=) travels with them.
 * After rendering, focus moves to the page heading so keyboard and screen-reader users land on it.
 * A path that names no page renders the not-found page (never another page in its place).
 */
export const BASE = '/dashboard';

export interface Page {
  path: string;
  title: string;
  /** Reachable without a session (sign-in, set password). */
  public?: boolean;
  /** Shown in the navigation. */
  nav?: boolean;
  render(main: HTMLElement): Promise<void>;
}

let pages: Page[] = [];
let notFound: Page | undefined;
let onNavigate: (page: Page) => Promise<void> = () => Promise.resolve();

export function startRouter(all: Page[], missing: Page, navigate: (page: Page) => Promise<void>): void {
  pages = all;
  notFound = missing;
  onNavigate = navigate;
  window.addEventListener('popstate', () => void route());
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.target || link.hasAttribute('download') || link.origin !== location.origin || !link.pathname.startsWith(BASE)) return;
    if (link.pathname.startsWith(`${BASE}/api/`)) return;
    event.preventDefault();
    go(link.pathname + link.search + link.hash);
  });
  void route();
}

export function pageFor(pathname: string): Page {
  const rel = pathname.replace(/\/+$/, '') || BASE;
  return pages.find((p) => BASE + p.path === rel || (p.path === '/' && rel === BASE)) ?? notFound!;
}

export function go(url: string, replace = false): void {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  void route();
}

/** A dashboard link that keeps the current account. */
export function href(path: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  const account = new URLSearchParams(location.search).get('account');
  if (account) params.set('account', account);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const q = params.toString();
  return `${BASE}${path === '/' ? '/' : path}${q ? `?${q}` : ''}`;
}

async function route(): Promise<void> {
  await onNavigate(pageFor(location.pathname));
}
