/**
 * Where the OpenAPI document says the API is: `servers` is PUBLIC_URL when set, else the origin
 * the request reached (as the OAuth issuer and the AsyncAPI servers, docs/decisions.md
 * "Documentation"), plus the sandbox when one is configured; the OAuth 2.0 flow's URLs are under
 * that same origin. The sandbox serves /v1 and the public documents only (api/app.ts), so every
 * other operation names the main server alone.
 */
import type { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { Request } from 'express';
import type { Config } from '../../shared/config.js';
import { OAUTH_PATHS } from '../oauth/constants.js';
import { realtimeOrigin } from './asyncapi.js';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export interface DocumentOrigins {
  /** Origin of the API, e.g. https://api.example.com */
  main: string;
  /** Origins of the sandbox, when configured. */
  sandboxes: string[];
}

/** A host name or address literal: what SANDBOX_HOST may put into a URL. */
const PLAIN_HOSTNAME = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])$/;

/** The document's origins for this request (PUBLIC_URL, else the request's origin, else the listener). */
export function documentOrigins(
  config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT' | 'TLS_CERT' | 'SANDBOX_HOST' | 'SANDBOX_PORT'>,
  req?: Pick<Request, 'host' | 'protocol'>,
): DocumentOrigins {
  const { host, secure } = realtimeOrigin(config, req);
  const main = new URL(`${secure ? 'https' : 'http'}://${host}`);
  const sandboxes: string[] = [];
  // Host-named sandbox: the same listener, so the same scheme and port.
  if (config.SANDBOX_HOST !== undefined && PLAIN_HOSTNAME.test(config.SANDBOX_HOST)) {
    sandboxes.push(new URL(`${main.protocol}//${config.SANDBOX_HOST}${main.port === '' ? '' : `:${main.port}`}`).origin);
  }
  // The sandbox listener: the same host and scheme (api/server.ts), its own port. Port 0 (any
  // free port) cannot be named before it is bound, so it is left out.
  if (config.SANDBOX_PORT !== undefined && config.SANDBOX_PORT !== 0) {
    sandboxes.push(new URL(`${main.protocol}//${main.hostname}:${config.SANDBOX_PORT}`).origin);
  }
  return { main: main.origin, sandboxes: [...new Set(sandboxes)] };
}

/** Paths the sandbox answers (api/app.ts: /v1 and what is mounted before its rule). */
export function servedOnSandbox(path: string): boolean {
  return /^\/(?:v1\/|healthz$|readyz$|openapi\.json$|sdk\/)/.test(path);
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** A copy of `document` naming `origins`; the input is not changed (it is shared between requests). */
export function localizeDocument(document: OpenApiDocument, origins: DocumentOrigins): OpenApiDocument {
  const servers = [
    { url: origins.main, description: 'API' },
    ...origins.sandboxes.map((url) => ({ url, description: 'Sandbox: /v1 only; usage counted apart from production' })),
  ];
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (origins.sandboxes.length === 0 || servedOnSandbox(path)) {
      paths[path] = item;
      continue;
    }
    const copy: Record<string, unknown> = { ...item };
    for (const method of METHODS) {
      const operation = copy[method];
      if (operation !== undefined) copy[method] = { ...operation, servers: [servers[0]] };
    }
    paths[path] = copy;
  }
  const schemes = { ...document.components?.securitySchemes };
  if (schemes.OAuth2 !== undefined && 'flows' in schemes.OAuth2) {
    const flow = schemes.OAuth2.flows?.authorizationCode;
    if (flow !== undefined) {
      schemes.OAuth2 = {
        ...schemes.OAuth2,
        flows: {
          authorizationCode: {
            ...flow,
            authorizationUrl: origins.main + OAUTH_PATHS.authorize,
            tokenUrl: origins.main + OAUTH_PATHS.token,
            refreshUrl: origins.main + OAUTH_PATHS.token,
          },
        },
      };
    }
  }
  return {
    ...document,
    servers,
    paths: paths as OpenApiDocument['paths'],
    components: { ...document.components, securitySchemes: schemes },
  };
}
