/**
 * The server code is layered, and imports run one way only: down. LAYERS below is the single
 * declaration of the layering (README.md "Layout" shows it, docs/decisions.md "Code layout" says
 * why). The walker reads every `.ts` file under api/ (the separately built packages api/clients/
 * and api/dashboard/web/ aside), shared/, workers/ and deploy/, takes each relative specifier of
 * `import … from`, `export … from`, `import '…'` and `import('…')`, resolves it to a file, and
 * fails listing every import that goes from a lower layer to a higher one, every cycle between the
 * table's folders, every import between api/ and workers/, and every import of server code (beyond
 * the contract) by the separate packages.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/spawn.js';

interface Layer {
  name: string;
  why: string;
  /** Folders (ending in `/`) and single files; a file belongs to its longest matching entry. */
  members: readonly string[];
}

/** Lowest first: a layer may import its own and lower layers, never a higher one. */
const LAYERS: readonly Layer[] = [
  {
    name: 'shared',
    why: 'the transport-neutral core both roles use: hashing, errors, config, store, queue, blobs, limits',
    members: ['shared/'],
  },
  {
    name: 'api base',
    why: 'what every part of the API node is written against, with no HTTP in it: the zod contract, the deps container and its job executor, the OpenAPI kit, first-use loading',
    members: [
      'api/schemas/',
      'api/jobs/',
      'api/deps.ts',
      'api/openapi-kit.ts',
      'api/lazy.ts',
      'api/readiness.ts',
      'api/dashboard-dist.ts',
      'api/client-domain-index.ts',
      'api/oauth/constants.ts',
    ],
  },
  {
    name: 'http plumbing',
    why: 'envelopes, raw responses, the error handler, the route-table builder, request context and bodies: what a middleware or a route is built from',
    members: ['api/http/', 'api/uploads/'],
  },
  {
    name: 'middleware',
    why: 'request id, trace, metrics, authentication, limits, CORS, body parsers and guards, each one Express handler over the plumbing',
    members: ['api/middleware/'],
  },
  {
    name: 'operations',
    why: 'one function per operation shared by every transport, and the dashboard sign-in session, CSRF and policy that management and OAuth both use',
    members: ['api/operations/', 'api/auth/', 'api/sessions/'],
  },
  {
    name: 'transports',
    why: 'route tables and renderers per surface; they may use each other only without a cycle',
    members: [
      'api/v1/',
      'api/v2/',
      'api/realtime/',
      'api/management/',
      'api/management/operations/',
      'api/management/schemas/',
      'api/oauth/',
      'api/oauth/server/',
      'api/docs/',
      'api/docs/static/',
      'api/dashboard/',
      'api/admin/',
    ],
  },
  {
    name: 'api node',
    why: 'the Express app, the composition root, the listeners and the OpenAPI document that assemble every transport',
    members: [
      'api/app.ts',
      'api/compose.ts',
      'api/node.ts',
      'api/main.ts',
      'api/server.ts',
      'api/openapi.ts',
      'api/service-routes.ts',
      'api/log-routes.ts',
      'api/openapi-request-defaults.ts',
    ],
  },
  {
    name: 'workers',
    why: 'the job handlers and the worker process, over shared/ only (never api/)',
    members: ['workers/'],
  },
  {
    name: 'deploy',
    why: 'the entry scripts where the API node and the workers meet',
    members: ['deploy/'],
  },
];

/** Separately built packages: not part of the server's layering. */
const OUTSIDE = ['api/clients/', 'api/dashboard/web/'];
/**
 * What those packages may read of the server: the contract (zod schemas, the management routes and
 * scope names, the version), plain declarations that run in a browser. Their build scripts
 * (`scripts/`) are exempt: the SDK's types are generated from the OpenAPI document the server builds.
 */
const CONTRACT = [
  'api/schemas/',
  'api/management/schemas/',
  'api/management/contract.ts',
  'api/management/routes.ts',
  'api/management/scopes.ts',
  'api/docs/version.ts',
];
const ROOTS = ['api', 'shared', 'workers', 'deploy'];

interface Place {
  layer: number;
  /** The table entry the file falls under: the unit of the cycle check. */
  unit: string;
}

function placeOf(file: string): Place | undefined {
  let best: Place | undefined;
  LAYERS.forEach((layer, index) => {
    for (const member of layer.members) {
      const matches = member.endsWith('/') ? file.startsWith(member) : file === member;
      if (matches && (best === undefined || member.length > best.unit.length)) best = { layer: index, unit: member };
    }
  });
  return best;
}

function sourceFiles(dir: string, skip: readonly string[] = OUTSIDE): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (['node_modules', 'dist'].includes(entry.name) || skip.some((outside) => `${rel}/`.startsWith(outside))) continue;
    if (entry.isDirectory()) found.push(...sourceFiles(rel, skip));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(rel);
  }
  return found;
}

const SPECIFIERS = [
  /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** The repository-relative file a relative specifier names, if it is one. */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, `${base}/index.ts`];
  return candidates.find((candidate) => existsSync(path.join(ROOT, candidate)) && candidate.includes('.'));
}

interface Edge {
  from: string;
  to: string;
}

function importsOf(file: string): Edge[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const edges: Edge[] = [];
  for (const pattern of SPECIFIERS) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1];
      if (specifier === undefined || !specifier.startsWith('.')) continue;
      const to = resolve(file, specifier);
      if (to !== undefined) edges.push({ from: file, to });
    }
  }
  return edges;
}

/** Cycles between units: the strongly connected components with more than one unit (Tarjan). */
function cyclesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

const roleOf = (file: string): string | undefined => ['api/', 'workers/'].find((role) => file.startsWith(role));

describe('layers', () => {
  const files = ROOTS.flatMap((dir) => sourceFiles(dir)).sort();
  const edges = files.flatMap(importsOf);

  it('places every file in exactly one layer of the table', () => {
    expect(files.length).toBeGreaterThan(250);
    expect(files.filter((file) => placeOf(file) === undefined)).toEqual([]);
  });

  it('has no import from a lower layer to a higher one', () => {
    const upward: string[] = [];
    for (const { from, to } of edges) {
      const source = placeOf(from);
      const target = placeOf(to);
      if (source === undefined || target === undefined || target.layer <= source.layer) continue;
      const [lower, higher] = [LAYERS[source.layer]?.name, LAYERS[target.layer]?.name];
      upward.push(`${from} → ${to}: ${lower} may not import ${higher}`);
    }
    expect(upward, 'imports against the layering (LAYERS in this file)').toEqual([]);
  });

  it('has no cycle between the folders of the table', () => {
    const graph = new Map<string, Set<string>>();
    const example = new Map<string, string>();
    for (const { from, to } of edges) {
      const [source, target] = [placeOf(from)?.unit, placeOf(to)?.unit];
      if (source === undefined || target === undefined || source === target) continue;
      graph.set(source, (graph.get(source) ?? new Set()).add(target));
      if (!example.has(`${source} ${target}`)) example.set(`${source} ${target}`, `${from} → ${to}`);
    }
    const cycles = cyclesOf(graph).map((units) => {
      const inside = [...example].filter(([key]) => units.includes(key.split(' ')[0] ?? '') && units.includes(key.split(' ')[1] ?? ''));
      return `${units.join(' ↔ ')}: ${inside.map(([, edge]) => edge).join('; ')}`;
    });
    expect(cycles, 'folders that import each other').toEqual([]);
  });

  it('lets the separately built packages read only the contract of the server', () => {
    const packages = OUTSIDE.flatMap((dir) => sourceFiles(dir.replace(/\/$/, ''), [])).filter((file) => !file.includes('/scripts/'));
    expect(packages.length).toBeGreaterThan(20);
    const server = packages
      .flatMap(importsOf)
      .filter(({ to }) => placeOf(to) !== undefined && !OUTSIDE.some((dir) => to.startsWith(dir)))
      .filter(({ to }) => !CONTRACT.some((entry) => (entry.endsWith('/') ? to.startsWith(entry) : to === entry)))
      .map(({ from, to }) => `${from} → ${to}`);
    expect(server, 'api/clients/ and api/dashboard/web/ import server code').toEqual([]);
  });

  it('keeps api/ and workers/ apart', () => {
    const crossing = edges
      .filter(({ from, to }) => roleOf(from) !== undefined && roleOf(to) !== undefined && roleOf(from) !== roleOf(to))
      .map(({ from, to }) => `${from} → ${to}`);
    expect(crossing, 'api/ and workers/ meet only in deploy/').toEqual([]);
  });
});
