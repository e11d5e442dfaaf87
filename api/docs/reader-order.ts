/**
 * What a reader of /docs meets first. Swagger UI lists the Authorize dialog's schemes in the
 * document's order and gives every field `autoFocus`, so the order is the reader's: the API key in
 * X-API-Key (what most callers have) first, then the same key as a bearer token, in the query,
 * then JWTs, OAuth, and the dashboard's session cookie last (only the dashboard's own page has one).
 * Summaries are shown as plain text (Swagger UI renders only descriptions as Markdown), so their
 * code spans lose their backticks here, in one place, for every path however it was registered.
 */
import type { OpenApiDocument } from './openapi-servers.js';

/** Scheme names in the order a reader needs them; others follow, cookie schemes last. */
const SCHEME_ORDER = ['ApiKeyHeader', 'BearerApiKey', 'ApiKeyQuery', 'BearerJwt', 'OAuth2', 'OAuthClientBasic'];

type Schemes = NonNullable<NonNullable<OpenApiDocument['components']>['securitySchemes']>;

function rank(name: string, scheme: Schemes[string]): number {
  const known = SCHEME_ORDER.indexOf(name);
  if (known >= 0) return known;
  return 'in' in scheme && scheme.in === 'cookie' ? SCHEME_ORDER.length + 1 : SCHEME_ORDER.length;
}

export function orderSecuritySchemes(schemes: Schemes): Schemes {
  return Object.fromEntries(Object.entries(schemes).sort(([a, sa], [b, sb]) => rank(a, sa) - rank(b, sb)));
}

/** `?async=true` answers 202 → ?async=true answers 202. */
export function plainSummary(summary: string): string {
  return summary.replace(/`([^`]*)`/g, '$1');
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The document with its schemes in reading order and plain-text summaries; the input is not changed. */
export function forReaders(document: OpenApiDocument): OpenApiDocument {
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const copy: Record<string, unknown> = { ...item };
    for (const method of METHODS) {
      const operation = copy[method] as { summary?: string } | undefined;
      if (operation?.summary !== undefined) copy[method] = { ...operation, summary: plainSummary(operation.summary) };
    }
    paths[path] = copy;
  }
  const schemes = document.components?.securitySchemes;
  return {
    ...document,
    paths: paths as OpenApiDocument['paths'],
    ...(schemes === undefined ? {} : { components: { ...document.components, securitySchemes: orderSecuritySchemes(schemes) } }),
  };
}
