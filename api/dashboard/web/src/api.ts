/**
 * The dashboard's client of the management API, typed by the server's contract (imported as types
 * only: no schema code in the bundle). JSON in and out, the session cookie sent by the browser, the
 * CSRF token in X-CSRF-Token on every method but GET. A 401 means the session ended: the page goes
 * to sign-in and comes back afterwards.
 */
import type { ManagementApi } from '../../../management/contract.js';
import { CSRF_HEADER_NAME, MANAGEMENT_ROUTES, routePath, type RouteName } from '../../../management/routes.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The field a validation error names ("field: allowedIps[1]" → "allowedIps[1]"). */
  get field(): string | undefined {
    return /^field: (.+)$/.exec(this.details ?? '')?.[1];
  }
}

type Part<K extends RouteName, P extends 'params' | 'query' | 'body'> = ManagementApi[K][P] extends undefined
  ? { [Q in P]?: undefined }
  : { [Q in P]: ManagementApi[K][P] };
export type CallArgs<K extends RouteName> = Part<K, 'params'> & Partial<Part<K, 'query'>> & Part<K, 'body'>;

let csrfToken: string | undefined;
let onUnauthorized: () => void = () => undefined;

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

function withQuery(path: string, query: object | undefined): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) search.set(k, String(v));
  const s = search.toString();
  return s ? `${path}?${s}` : path;
}

/** The URL of a GET route (for links such as the CSV download). */
export function urlOf<K extends RouteName>(name: K, args: CallArgs<K>): string {
  return withQuery(routePath(name, args.params ?? {}), args.query);
}

export async function call<K extends RouteName>(name: K, args: CallArgs<K>): Promise<ManagementApi[K]['response']> {
  const { method } = MANAGEMENT_ROUTES[name];
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET' && csrfToken) headers[CSRF_HEADER_NAME] = csrfToken;
  let body: string | undefined;
  if (method !== 'GET') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(args.body ?? {});
  }
  let response: Response;
  try {
    response = await fetch(urlOf(name, args), { method, headers, body, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service could not be reached; check your connection and try again', undefined);
  }
  const text = await response.text();
  const parsed: unknown = text === '' ? undefined : safeJson(text);
  if (!response.ok) {
    const error = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
    const err = new ApiError(
      response.status,
      typeof error?.code === 'string' ? error.code : 'HTTP_' + String(response.status),
      typeof error?.message === 'string' ? error.message : `The request failed (${response.status})`,
      typeof error?.details === 'string' ? error.details : undefined,
    );
    if (response.status === 401 && name !== 'signIn' && name !== 'setPassword') onUnauthorized();
    throw err;
  }
  return parsed as ManagementApi[K]['response'];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
