/** A small OAuth 2.0 client for the tests: PKCE pairs, the authorize redirect, the token endpoint. */
import { createHash, randomBytes } from 'node:crypto';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeResult {
  status: number;
  /** The redirect target, when the server redirected. */
  location: URL | undefined;
  /** The JSON body, when it did not. */
  body: any;
}

export async function authorize(
  baseUrl: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
  method: 'GET' | 'POST' = 'GET',
): Promise<AuthorizeResult> {
  const query = new URLSearchParams(params).toString();
  const res =
    method === 'GET'
      ? await fetch(`${baseUrl}/oauth/authorize?${query}`, { headers, redirect: 'manual' })
      : await fetch(`${baseUrl}/oauth/authorize`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: query,
          redirect: 'manual',
        });
  const location = res.headers.get('location');
  const text = await res.text();
  // A relative Location (the dashboard's sign-in) is read against the server's address.
  const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
  return {
    status: res.status,
    location: location ? new URL(location, baseUrl) : undefined,
    body: text && isJson ? JSON.parse(text) : text || undefined,
  };
}

export function basic(clientId: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}` };
}

export async function postForm(
  url: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
