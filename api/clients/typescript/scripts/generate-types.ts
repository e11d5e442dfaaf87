/** Writes src/generated/*.ts (see scripts/openapi-types.ts). */
import fs from 'node:fs';
import { GENERATED_FILES, renderGeneratedTypes } from './openapi-types.js';

const rendered = await renderGeneratedTypes();
for (const name of Object.keys(GENERATED_FILES) as Array<keyof typeof GENERATED_FILES>) {
  fs.writeFileSync(GENERATED_FILES[name], rendered[name]);
  console.log(`wrote ${GENERATED_FILES[name]}`);
}
