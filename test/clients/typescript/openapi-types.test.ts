/**
 * The SDK's generated types are exactly what the generator makes from today's schemas: the OpenAPI
 * document the server serves and the /v2/ws message schemas. A schema change without
 * `npm run generate -w @sha224d/client` fails here.
 */
import fs from 'node:fs';
import { expect, it } from 'vitest';
import { GENERATED_FILES, renderGeneratedTypes } from '../../../api/clients/typescript/scripts/openapi-types.js';
import { buildOpenApiDocument } from '../../../api/openapi.js';

it('regenerating the types yields the committed files', async () => {
  const rendered = await renderGeneratedTypes();
  expect(rendered.openapi).toBe(fs.readFileSync(GENERATED_FILES.openapi, 'utf8'));
  expect(rendered.realtime).toBe(fs.readFileSync(GENERATED_FILES.realtime, 'utf8'));
}, 30_000);

it('every path of the served document has its types', () => {
  const generated = fs.readFileSync(GENERATED_FILES.openapi, 'utf8');
  const paths = Object.keys(buildOpenApiDocument().paths ?? {});
  expect(paths.length).toBeGreaterThanOrEqual(21);
  for (const p of paths) expect(generated).toContain(`'${p}': {`);
});
