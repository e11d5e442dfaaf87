import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { localizeDocument, type DocumentOrigins, type OpenApiDocument } from './docs/openapi-servers.js';
import { forReaders } from './docs/reader-order.js';
import { SERVICE_VERSION } from './docs/version.js';
import { MANAGEMENT_BASE } from './management/routes.js';
import { MANAGEMENT_TABLE, managementSecurity, SESSION_SECURITY_SCHEME } from './management/table.js';
import { SCOPE_WORDS } from './management/scopes.js';
import { OAUTH_PATHS, OAUTH_SCOPES } from './oauth/constants.js';
import { OAUTH_PREFIX, OAUTH_ROUTES, oauthSecurity, WELL_KNOWN_PREFIX, WELL_KNOWN_ROUTES } from './oauth/routes.js';
import { documentRoutes, documentTable, registerHeaders, type Generation, type HeaderRefs } from './openapi-kit.js';
import { LOG_PUBLIC_ROUTES } from './log-routes.js';
import { CLIENT_LIBRARY_ROUTES, METRICS_ROUTE, SERVICE_ROUTES, serviceSecurity } from './service-routes.js';
import { describeRequestDefaults } from './openapi-request-defaults.js';
import * as v1 from './schemas/v1.js';
import * as v2 from './schemas/v2.js';
import { V1_ROUTES } from './v1/routes.js';
import { V2_ROUTES } from './v2/routes.js';
// The groups of /v2 loaded on first use (api/v2/routes.ts V2_ROUTE_GROUPS), in that order: this
// document is built on its first request, so importing them here costs no start.
import { UPLOAD_ROUTES } from './v2/upload-routes.js';
import { PROOF_ROUTES } from './v2/proof-routes.js';
import { BULK_ROUTES } from './v2/bulk-routes.js';

export interface OpenApiOptions {
  /** The OAuth endpoints are served (the SQL store holds their tables; api/compose.ts). Default true. */
  oauth?: boolean;
  /** Where the document says the API is (api/docs/openapi-servers.ts). Default: the node's default listener. */
  origins?: DocumentOrigins;
  /** The management API, the dashboard's (the SDKs are generated without it). Default false. */
  management?: boolean;
}

export const DEFAULT_ORIGINS: DocumentOrigins = { main: 'http://127.0.0.1:8080', sandboxes: [] };

/** Tags: one per API generation, then the rest of what the node serves. */
const TAGS = [
  // Links, not file names: a reader of /docs follows them to the guides the node serves (api/docs/guides.ts).
  {
    name: 'v2',
    description: 'The current API ([the contract](/docs/guides/api#v2-endpoints)): X-API-Key (recommended), `api_key`, or a bearer token.',
  },
  {
    name: 'v1',
    description:
      'The first generation ([Set A](/docs/guides/api#v1-set-a) and [Set B](/docs/guides/api#v1-set-b) of the contract), kept for existing clients: `Authorization: Bearer` or `api_key`.',
  },
  { name: 'OAuth', description: 'OAuth 2.0 authorization server for Enterprise accounts ([guide](/docs/guides/auth)).' },
  { name: 'Service', description: 'Probes, metrics and public documents; only /metrics asks for a credential (METRICS_TOKEN).' },
  { name: 'Client library', description: 'The client-side SHA-224 JavaScript library (README "Client-side SHA-224 library").' },
  {
    name: 'Transparency log',
    description: "The log of digests' public checkpoint, tiles and keys, for verifying receipts offline ([guide](/docs/guides/proving)).",
  },
  { name: 'Dashboard', description: 'The JSON API the account dashboard calls (README "Dashboard"): a session cookie, not an API key.' },
];

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests, so the
 * two cannot drift. Every operation has an operationId and its generation's tag, and lists the
 * statuses its route can answer with their envelope and headers (api/openapi-kit.ts).
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const oauth = options.oauth ?? true;
  const registry = new OpenAPIRegistry();
  const headers = registerHeaders(registry);
  registerSecuritySchemes(registry, oauth);
  const oauthScope = oauth ? [{ OAuth2: [] }] : [];
  documentRoutes(
    {
      name: 'v2',
      registry,
      errorSchema: v2.ErrorResponse,
      errorSchemaName: 'ErrorResponse',
      // The reader's order, as the Authorize dialog's (api/docs/reader-order.ts).
      security: [{ ApiKeyHeader: [] }, { BearerApiKey: [] }, { ApiKeyQuery: [] }, { BearerJwt: [] }, ...oauthScope],
      headers,
    },
    '/v2',
    [...V2_ROUTES, ...UPLOAD_ROUTES, ...PROOF_ROUTES, ...BULK_ROUTES],
  );
  documentRoutes(
    {
      name: 'v1',
      registry,
      errorSchema: v1.ErrorResponseV1,
      errorSchemaName: 'V1ErrorResponse',
      security: [{ BearerApiKey: [] }, { ApiKeyQuery: [] }, { BearerJwt: [] }, ...oauthScope],
      headers,
    },
    '/v1',
    V1_ROUTES,
  );
  if (oauth) documentOAuth(registry, headers);
  documentService(registry, headers);
  if (options.management === true) documentManagement(registry, headers);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'sha224d',
      version: SERVICE_VERSION,
      description: 'Self-hostable SHA-224 hashing service: HTTP/JSON API (v1, v2), OAuth 2.0, probes and the client-side library.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: DEFAULT_ORIGINS.main }],
    tags: TAGS,
  });
  return localizeDocument(describeRequestDefaults(forReaders(document)), options.origins ?? DEFAULT_ORIGINS);
}

/** The OAuth endpoints and their metadata (api/oauth/routes.ts): the OAuth error envelope, in their schemas. */
function documentOAuth(registry: OpenAPIRegistry, headers: HeaderRefs): void {
  const gen = publicGeneration(registry, headers);
  documentTable({ gen, tag: 'OAuth', security: oauthSecurity }, OAUTH_PREFIX, OAUTH_ROUTES);
  documentTable({ gen, tag: 'OAuth', security: oauthSecurity }, WELL_KNOWN_PREFIX, WELL_KNOWN_ROUTES);
}

/** The headers and v2 envelope, without rate window, of the routes outside the API generations. */
function publicGeneration(registry: OpenAPIRegistry, headers: HeaderRefs): Generation {
  return { name: 'v2', registry, errorSchema: v2.ErrorResponse, errorSchemaName: 'ErrorResponse', security: [], headers, limited: false };
}

/** The dashboard's JSON API (api/management/table.ts): a session cookie, errors in its own schema. */
function documentManagement(registry: OpenAPIRegistry, headers: HeaderRefs): void {
  registry.registerComponent('securitySchemes', SESSION_SECURITY_SCHEME, {
    type: 'apiKey',
    in: 'cookie',
    name: 'sha224d_session',
    description:
      'The dashboard session cookie (`__Host-sha224d_session` over HTTPS). Requests other than GET also need `X-CSRF-Token` and a same-origin `Origin`.',
  });
  const gen = publicGeneration(registry, headers);
  documentTable({ gen, tag: 'Dashboard', security: managementSecurity }, MANAGEMENT_BASE, MANAGEMENT_TABLE);
}

/** The service routes (api/service-routes.ts): errors in the v2 envelope, no rate window. */
function documentService(registry: OpenAPIRegistry, headers: HeaderRefs): void {
  const gen = publicGeneration(registry, headers);
  documentTable({ gen, tag: 'Service', security: serviceSecurity }, '', [...SERVICE_ROUTES, METRICS_ROUTE]);
  documentTable({ gen, tag: 'Client library', security: serviceSecurity }, '', CLIENT_LIBRARY_ROUTES);
  documentTable({ gen, tag: 'Transparency log', security: serviceSecurity }, '', LOG_PUBLIC_ROUTES);
}

function registerSecuritySchemes(registry: OpenAPIRegistry, oauth: boolean): void {
  registry.registerComponent('securitySchemes', 'ApiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'An API key (`s224_…`) in `X-API-Key`: the recommended way for /v2 (v1 does not read this header).',
  });
  registry.registerComponent('securitySchemes', 'ApiKeyQuery', {
    type: 'apiKey',
    in: 'query',
    name: 'api_key',
    description: 'An API key in the query string. Accepted for compatibility; logs and proxies keep URLs, so prefer a header.',
  });
  registry.registerComponent('securitySchemes', 'BearerApiKey', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key (s224_…)',
    description: 'An API key as a bearer token: `Authorization: Bearer s224_…` (the v1 way).',
  });
  registry.registerComponent('securitySchemes', 'BearerJwt', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An Enterprise JWT (HS256) signed with the deployment secret or an account key (docs/auth.md).',
  });
  registry.registerComponent('securitySchemes', 'MetricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'METRICS_TOKEN, for Prometheus (docs/operating.md): `Authorization: Bearer <METRICS_TOKEN>`.',
  });
  if (!oauth) return;
  registry.registerComponent('securitySchemes', 'OAuth2', {
    type: 'oauth2',
    description: 'OAuth 2.0 authorization code grant with PKCE S256, for clients registered by Enterprise accounts (docs/auth.md).',
    flows: {
      authorizationCode: {
        // Absolute, under the issuer: localizeDocument sets them per origin.
        authorizationUrl: DEFAULT_ORIGINS.main + OAUTH_PATHS.authorize,
        tokenUrl: DEFAULT_ORIGINS.main + OAUTH_PATHS.token,
        refreshUrl: DEFAULT_ORIGINS.main + OAUTH_PATHS.token,
        scopes: Object.fromEntries(OAUTH_SCOPES.map((scope) => [scope, SCOPE_WORDS[scope] ?? scope])),
      },
    },
  });
  registry.registerComponent('securitySchemes', 'OAuthClientBasic', {
    type: 'http',
    scheme: 'basic',
    description:
      'client_secret_basic: the form-urlencoded client id and secret (RFC 6749 §2.3.1). client_secret_post sends them in the form instead.',
  });
}
