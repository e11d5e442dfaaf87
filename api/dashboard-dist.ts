import path from 'node:path';

/**
 * Where `npm run build` (api/dashboard/build.ts) writes the dashboard's pages. This file sits one
 * level below the root, as the bundles in dist/ do (deploy/build.mjs), so the path holds both when
 * run from source and from dist/.
 */
export const DASHBOARD_DIST = path.join(import.meta.dirname, '..', 'dist', 'dashboard');
