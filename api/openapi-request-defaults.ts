/**
 * Request schemas state their defaults in words, not in the `default` keyword.
 *
 * Why: a schema in `components/schemas` may be read as an answer, where a property with a `default`
 * is always present, and default generators read it so: openapi-typescript (run with its defaults)
 * makes such a property required, so a request that leaves `encoding` out would not type-check
 * although the service fills it in (docs/decisions.md "Documentation"). `required` already lists
 * exactly what a caller must send; the default itself stays in the property's description.
 * Schemas only answers use are left as they are.
 */
import type { OpenApiDocument } from './docs/openapi-servers.js';

const SCHEMA_REF = '#/components/schemas/';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Names of the component schemas a request body reaches, directly or through other schemas. */
function requestSchemaNames(document: OpenApiDocument, schemas: Json): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) {
      const name = ref.slice(SCHEMA_REF.length);
      if (!names.has(name)) {
        names.add(name);
        visit(schemas[name]);
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const item of Object.values(document.paths ?? {})) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) if (isObject(operation)) visit(operation.requestBody);
  }
  return names;
}

/** Moves every property default within `schema` (not through `$ref`s) into its description. */
function describeDefaults(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(describeDefaults);
  if (!isObject(schema)) return;
  const properties = schema.properties;
  if (isObject(properties)) {
    for (const property of Object.values(properties)) {
      if (!isObject(property) || !('default' in property)) continue;
      const said = `Defaults to ${JSON.stringify(property.default)} when omitted.`;
      property.description = typeof property.description === 'string' ? `${property.description.replace(/\.?$/, '.')} ${said}` : said;
      delete property.default;
    }
  }
  for (const [key, value] of Object.entries(schema)) if (key !== '$ref') describeDefaults(value);
}

/** Rewrites `document` in place (see the file's comment) and returns it. */
export function describeRequestDefaults(document: OpenApiDocument): OpenApiDocument {
  const schemas = document.components?.schemas;
  if (!isObject(schemas)) return document;
  for (const name of requestSchemaNames(document, schemas)) describeDefaults(schemas[name]);
  return document;
}
