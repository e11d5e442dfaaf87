/**
 * Renders the SDK's generated types with openapi-typescript, formatted by the repository's
 * Prettier settings so the committed files pass `npm run lint` as generated:
 * - src/generated/openapi.ts from the OpenAPI document the server serves at /openapi.json
 *   (api/openapi.ts buildOpenApiDocument);
 * - src/generated/realtime.ts from the zod schemas of the /v2/ws messages (api/schemas/ws.ts),
 *   which are not HTTP operations and so are not in that document.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import openapiTS, { astToString } from 'openapi-typescript';
import path from 'node:path';
import prettier from 'prettier';
import { SERVICE_VERSION } from '../../../docs/version.js';
import { buildOpenApiDocument } from '../../../openapi.js';
import { WsErrorReply, WsHashMessage, WsHashReply } from '../../../schemas/ws.js';

const GENERATED_DIR = path.join(import.meta.dirname, '..', 'src', 'generated');

export const GENERATED_FILES = {
  openapi: path.join(GENERATED_DIR, 'openapi.ts'),
  realtime: path.join(GENERATED_DIR, 'realtime.ts'),
} as const;

type Document = Parameters<typeof openapiTS>[0];

function header(source: string): string {
  return `/**
 * Generated from ${source} by api/clients/typescript/scripts/generate-types.ts.
 * Do not edit: run \`npm run generate -w @sha224d/client\`.
 */
`;
}

async function render(document: unknown, source: string, file: string): Promise<string> {
  // Request fields with a default are optional to a caller (the service fills them in).
  const ast = await openapiTS(document as Document, { defaultNonNullable: false });
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(header(source) + astToString(ast), { ...options, filepath: file });
}

function realtimeDocument(): unknown {
  const registry = new OpenAPIRegistry();
  registry.register('WsHashMessage', WsHashMessage);
  registry.register('WsHashReply', WsHashReply);
  registry.register('WsErrorReply', WsErrorReply);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'sha224d realtime messages', version: SERVICE_VERSION },
  });
}

export async function renderGeneratedTypes(): Promise<Record<keyof typeof GENERATED_FILES, string>> {
  return {
    openapi: await render(
      buildOpenApiDocument(),
      "the service's OpenAPI document (GET /openapi.json, api/openapi.ts)",
      GENERATED_FILES.openapi,
    ),
    realtime: await render(realtimeDocument(), 'the /v2/ws message schemas (api/schemas/ws.ts)', GENERATED_FILES.realtime),
  };
}
