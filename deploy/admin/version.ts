/**
 * The service's version, from the repository's package.json. The CLI runs from deploy/admin/ (tsx)
 * or from dist/ (the bundle), at different depths, so the file is looked for upwards.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function serviceVersion(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'sha224d' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // no package.json here: look further up
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
