/**
 * The service's version, as the repository's package.json says: the `info.version` of the
 * OpenAPI and AsyncAPI documents. esbuild inlines the JSON into dist/, so nothing is read at run time.
 */
import packageJson from '../../package.json' with { type: 'json' };

export const SERVICE_VERSION: string = packageJson.version;
