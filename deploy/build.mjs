// Bundles the service's entry points to dist/ with esbuild (~0.1 s). Production runs plain node on
// the bundle: tsx's loader thread is a second V8 isolate, ~60 MB of RSS (measured: 160 MB idle
// under tsx, 101 MB bundled), which would eat the 200 MB budget of a 1 GiB /v2/stream upload.
// Packages stay external (resolved from node_modules at run time), but for those every API node
// loads at start (BUNDLED below).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const entries = {
  embedded: 'deploy/embedded.ts',
  api: 'api/main.ts',
  worker: 'workers/main.ts',
  admin: 'deploy/admin/cli.ts',
};

/**
 * Packages bundled into the chunks rather than resolved from node_modules at run time: pure
 * JavaScript that every API node loads before its first request. Each is hundreds of small modules
 * (kysely 262 files, zod 95, prom-client and @opentelemetry/api 83), and a cold start spent most of
 * its CPU resolving, reading and compiling them one by one (docs/decisions.md "Cold start").
 * zod and zod-to-openapi go together: the latter extends the zod instance it imports. ioredis (and
 * its ~60 modules) is what a distributed API node adds at start; embedded mode imports it only with
 * REDIS_URL, so it sits in a chunk of its own. BullMQ stays external and is handed this bundle's
 * clients (it imports its own ioredis only when given options instead, which this service never does).
 */
const BUNDLED = new Set([
  'kysely',
  'zod',
  '@asteasolutions/zod-to-openapi',
  'prom-client',
  '@opentelemetry/api',
  'rate-limiter-flexible',
  'ipaddr.js',
  'express',
  'ioredis',
  'pino',
]);
/**
 * Packages a bundled package imports that stay resolved from node_modules at run time all the same:
 * data a cold start would otherwise compile as JavaScript. iconv-lite's CJK tables (550 kB of the
 * express chunk) are required only when a body in such a charset arrives; mime-db's db.json
 * (230 kB) is read with JSON.parse, far cheaper than compiling it as an object literal
 * (docs/decisions.md "Speed"). Each must resolve, from dist/, to the very file the package that
 * imports it would get, or the build stops.
 */
const RUNTIME_RESOLVED = new Set(['iconv-lite', 'mime-db']);
const fromDist = createRequire(path.join(root, 'dist', 'resolve.js'));
const sameResolution = (specifier, importer) => {
  const wanted = createRequire(importer).resolve(specifier);
  const got = fromDist.resolve(specifier);
  if (wanted !== got) throw new Error(`${specifier}: ${importer} imports ${wanted}, dist/ would load ${got}`);
  return true;
};
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    // A package a bundled package imports is bundled with it: only bundled files are resolved here.
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      // The stand-in of a deferred package (startCuts below) bundles the package itself.
      if (args.namespace === 'deferred') return undefined;
      const name = packageOf(args.path);
      if (RUNTIME_RESOLVED.has(name) && sameResolution(args.path, args.importer)) return { path: args.path, external: true };
      return BUNDLED.has(name) || args.importer.includes(`${path.sep}node_modules${path.sep}`)
        ? undefined
        : { path: args.path, external: true };
    });
  },
};

/**
 * zod's `locales` namespace (z.locales.fr() and 60-odd others, 360 kB of the 755 kB zod chunk every
 * API node compiles at start) is built empty: this service never switches zod's language, and
 * English, the default, is imported by zod's schemas directly (zod/v4/classic/schemas.js), not
 * through this namespace (docs/decisions.md "Speed").
 */
const zodWithoutLocales = {
  name: 'zod-without-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`) ? { path: 'zod-locales', namespace: 'empty' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * Parts of bundled packages that an API node's start evaluated for nothing, cut or deferred
 * (docs/decisions.md "Cold start"). The code stays in the chunk; what changes is what runs at start.
 *
 *   - DEFERRED: a CommonJS package whose importers only keep a reference at load and use it inside
 *     functions: each import of it gets a stand-in that loads it on the first property read, call
 *     or `new`. Express keeps mime-types (which builds its tables from mime-db's 230 kB at load) and
 *     qs (the "extended" query parser, which this service does not use) this way; prom-client keeps
 *     @opentelemetry/api (63 kB) for exemplars, which this service does not enable; pino keeps
 *     thread-stream (and worker_threads) for transports, which this service does not use; the
 *     multipart upload route keeps busboy until its first multipart body; ioredis keeps node:tls,
 *     Node's largest module after node:http, until a `rediss://` connection.
 *   - body-parser: Express copies its four parsers onto `express` at load, which loads all four,
 *     raw-body and iconv-lite; each becomes a function that loads the parser on its first call
 *     (only the OAuth form and the management API call any, both loaded on first use).
 *   - ENTRY_POINTS: the package's index requires every class it has (rate-limiter-flexible's
 *     Mongo, MySQL, DynamoDB, cluster… limiters, 171 kB; prom-client's Pushgateway, with https and
 *     zlib, and its cluster aggregator); this service's imports of it get only the files it uses.
 *     A name imported from the package that is not listed here stops the build.
 */
const DEFERRED = new Set(['mime-types', 'qs', '@opentelemetry/api', 'thread-stream', 'busboy', 'tls']);
/** Deferred for every importer, this service's code included; the others only for the bundled packages' imports. */
const DEFERRED_EVERYWHERE = new Set(['busboy']);
const ENTRY_POINTS = {
  'rate-limiter-flexible': { RateLimiterMemory: 'lib/RateLimiterMemory.js', RateLimiterRedis: 'lib/RateLimiterRedis.js' },
  'prom-client': {
    Registry: 'lib/registry.js',
    Counter: 'lib/counter.js',
    Gauge: 'lib/gauge.js',
    Histogram: 'lib/histogram.js',
    collectDefaultMetrics: 'lib/defaultMetrics.js',
  },
};
const BODY_PARSERS = ['json', 'raw', 'text', 'urlencoded'];
/**
 * ioredis's Cluster client (cluster/index.js with its subscriber groups, connection pool and slot
 * maps) is required by its index and by Redis.js at load, and every distributed API node loaded it
 * for a cluster it is seldom given. These rewrites require it on the first read of `Cluster` (or
 * `Redis.Cluster`), still from the bundle (shared/redis/client-factory.ts builds one only with
 * REDIS_CLUSTER_NODES). Each text must be found as written, or the build stops.
 */
const LAZY_CLUSTER = `let cluster_1_loaded; const cluster_1 = { get default() { return (cluster_1_loaded ??= require("./cluster")).default; } };`;
const IOREDIS_REWRITES = {
  [`ioredis${path.sep}built${path.sep}index.js`]: [['var cluster_1 = require("./cluster");', LAZY_CLUSTER]],
  [`ioredis${path.sep}built${path.sep}Redis.js`]: [
    ['const cluster_1 = require("./cluster");', LAZY_CLUSTER],
    [
      'Redis.Cluster = cluster_1.default;',
      'Object.defineProperty(Redis, "Cluster", { configurable: true, enumerable: true, get: () => cluster_1.default });',
    ],
  ],
};
const startCuts = {
  name: 'start-cuts',
  setup(b) {
    const inPackages = (importer) => importer.includes(`${path.sep}node_modules${path.sep}`);
    b.onResolve({ filter: /^(mime-types|qs|@opentelemetry\/api|thread-stream|busboy|body-parser|tls)$/ }, (args) =>
      args.namespace === 'file' && (inPackages(args.importer) || DEFERRED_EVERYWHERE.has(args.path))
        ? { path: args.path, namespace: 'deferred', pluginData: { resolveDir: args.resolveDir } }
        : undefined,
    );
    b.onResolve({ filter: /^(rate-limiter-flexible|prom-client)$/ }, (args) =>
      args.namespace === 'file' && !inPackages(args.importer)
        ? { path: args.path, namespace: 'entry-points', pluginData: { resolveDir: args.resolveDir } }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'deferred' }, (args) => {
      const load = `let loaded; const load = () => (loaded ??= require(${JSON.stringify(args.path)}));`;
      const contents =
        args.path === 'body-parser'
          ? `${load}\n${BODY_PARSERS.map((name) => `exports.${name} = (...options) => load().${name}(...options);`).join('\n')}`
          : // A function, so that calls and `new` reach the package too; `__esModule`, which esbuild's
            // import interop reads at load, is answered without loading it (busboy, the one imported
            // from an ES module, does not set it).
            `${load}\nmodule.exports = new Proxy(function deferred() {}, {
              get: (_, key) => (key === '__esModule' ? undefined : load()[key]),
              has: (_, key) => key in load(),
              apply: (_, self, args) => Reflect.apply(load(), self, args),
              construct: (_, args) => Reflect.construct(load(), args),
            });`;
      if (!DEFERRED.has(args.path) && args.path !== 'body-parser') throw new Error(`${args.path} is not deferred`);
      return { contents, loader: 'js', resolveDir: args.pluginData.resolveDir };
    });
    b.onLoad({ filter: /[\\/]ioredis[\\/]built[\\/](index|Redis)\.js$/ }, async (args) => {
      const rewrites = Object.entries(IOREDIS_REWRITES).find(([tail]) => args.path.endsWith(`${path.sep}node_modules${path.sep}${tail}`));
      if (rewrites === undefined) return undefined;
      let contents = await readFile(args.path, 'utf8');
      for (const [from, to] of rewrites[1]) {
        if (!contents.includes(from)) throw new Error(`${args.path}: "${from}" not found (deploy/build.mjs IOREDIS_REWRITES)`);
        contents = contents.replace(from, to);
      }
      return { contents, loader: 'js' };
    });
    b.onLoad({ filter: /.*/, namespace: 'entry-points' }, (args) => {
      const names = Object.entries(ENTRY_POINTS[args.path]);
      const contents = names
        .map(([name, file]) => `import ${name} from ${JSON.stringify(`${args.path}/${file}`)};`)
        .concat(`export { ${names.map(([name]) => name).join(', ')} };`)
        .join('\n');
      return { contents, loader: 'js', resolveDir: args.pluginData.resolveDir };
    });
  },
};

await build({
  absWorkingDir: root,
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Dynamic imports become chunks, so what one mode never uses (the AWS SDK in embedded mode, say) is never loaded.
  splitting: true,
  // Chunks stay in dist/ itself: code that builds paths from import.meta.dirname expects one level below the root.
  chunkNames: '[name]-[hash]',
  target: 'node20',
  plugins: [startCuts, externalPackages, zodWithoutLocales],
  // The maps ship with the bundles but the start scripts do not load them: --enable-source-maps
  // cost ~10 MiB of RSS and ~40 ms of CPU at start (docs/decisions.md "Speed"). An operator who
  // debugs sets NODE_OPTIONS=--enable-source-maps for stack traces in the TypeScript sources.
  sourcemap: true,
  // --enable-source-maps reads and parses each loaded chunk's map at load: without the sources
  // themselves (stack traces need only the mappings; Node reads a source line from the .ts file)
  // the maps are a tenth of the size (6.8 MB to 0.6 MB) and a cold start parses less.
  sourcesContent: false,
  logLevel: 'warning',
  // dist/ sits one level below the root, like api/: paths built from import.meta.dirname hold.
  // The bundled CommonJS packages (prom-client, rate-limiter-flexible) call require(): an ES module has none.
  banner: {
    js: [
      '// Built by deploy/build.mjs from the TypeScript sources; do not edit.',
      "import { createRequire as __createRequire } from 'node:module';",
      'const require = __createRequire(import.meta.url);',
    ].join('\n'),
  },
});

// The dashboard's pages (dist/dashboard/, api/dashboard/build.ts), which every API node serves
// under /dashboard: built here so `npm start`, `npm run api` and the tests never serve a stale or
// missing front-end. It is TypeScript that imports esbuild itself, so it runs under tsx.
execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'api', 'dashboard', 'build.ts')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
