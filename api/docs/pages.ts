/**
 * The HTML of the docs site: one layout (header with the site's sections), the API reference page
 * (Swagger UI mounts into it from /docs/assets/reference.js), the guides index and a guide page.
 * No inline script or style anywhere, so the Content-Security-Policy can forbid both.
 */
import { DOCS_BASE, GUIDES_BASE, type Guide } from './guides.js';

const ASSETS = `${DOCS_BASE}/assets`;

/** HTML-escapes text for element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Content-Security-Policy of the pages. Scripts only from this origin (the reference page's two
 * files), no inline script or style, no plugins, no framing; the reference may call this origin
 * (its "Try it out") and `connectTo` (the public origin, when the document's servers name it).
 */
export function contentSecurityPolicy(page: 'reference' | 'guide', connectTo: readonly string[] = []): string {
  const common = ["default-src 'none'", "style-src 'self'", "img-src 'self' data:", "base-uri 'none'", "frame-ancestors 'none'"];
  if (page === 'guide') return [...common, "form-action 'none'"].join('; ');
  return [
    ...common,
    "script-src 'self'",
    "font-src 'self'",
    `connect-src ${["'self'", ...connectTo].join(' ')}`,
    "form-action 'self'",
  ].join('; ');
}

interface LayoutOptions {
  title: string;
  section: 'reference' | 'guides';
  main: string;
  stylesheets?: string[];
  scripts?: string[];
}

function layout({ title, section, main, stylesheets = [], scripts = [] }: LayoutOptions): string {
  const current = (s: LayoutOptions['section']): string => (s === section ? ' aria-current="page"' : '');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · sha224d</title>
<link rel="icon" type="image/png" href="${ASSETS}/favicon-32x32.png">
${[...stylesheets, `${ASSETS}/docs.css`].map((href) => `<link rel="stylesheet" href="${href}">`).join('\n')}
</head>
<body>
<header class="site-header">
<a class="site-brand" href="${DOCS_BASE}">sha224d <span>docs</span></a>
<nav class="site-nav" aria-label="Sections">
<a href="${DOCS_BASE}"${current('reference')}>API reference</a>
<a href="${GUIDES_BASE}"${current('guides')}>Guides</a>
<a href="/openapi.json">OpenAPI</a>
<a href="/asyncapi.json">AsyncAPI</a>
</nav>
</header>
${main}
${scripts.map((src) => `<script src="${src}"></script>`).join('\n')}
</body>
</html>
`;
}

export function referencePage(): string {
  return layout({
    title: 'API reference',
    section: 'reference',
    stylesheets: [`${ASSETS}/swagger-ui.css`],
    scripts: [`${ASSETS}/swagger-ui-bundle.js`, `${ASSETS}/reference.js`],
    main: `<main class="reference">
<h1 class="visually-hidden">API reference</h1>
<section class="reference-intro">
<p>Every HTTP operation of both generations, from <a href="/openapi.json">/openapi.json</a>. To call one from this page,
choose <strong>Authorize</strong> and paste an API key (for /v2 in the <code>X-API-Key</code> scheme; /v1 takes it as a bearer token),
then open an operation and use <strong>Try it out</strong>. The key stays in this page and is sent only to this server.</p>
<p>WebSocket <code>/v2/ws</code> and socket.io <code>/v2</code> are described by <a href="/asyncapi.json">/asyncapi.json</a>
(AsyncAPI 3.0) and the <a href="${GUIDES_BASE}/realtime">realtime guide</a>.</p>
</section>
<div id="reference" class="reference-ui"><p class="reference-loading">Loading the reference…</p></div>
<noscript><p class="reference-intro">The interactive reference needs JavaScript; the document itself is <a href="/openapi.json">/openapi.json</a>.</p></noscript>
</main>`,
  });
}

/** A guide's title up to its colon ("Limits: plans, rates, …" → "Limits"), for the guide list. */
function shortTitle(title: string): string {
  return title.split(':')[0]!.trim();
}

function guideLinks(guides: readonly Guide[], current?: string): string {
  return guides
    .map(
      (g) =>
        `<li><a href="${GUIDES_BASE}/${g.name}"${g.name === current ? ' aria-current="page"' : ''}>${escapeHtml(shortTitle(g.title))}</a></li>`,
    )
    .join('\n');
}

export function guidesIndexPage(guides: readonly Guide[]): string {
  const items = guides
    .map((g) => `<li><a href="${GUIDES_BASE}/${g.name}">${escapeHtml(g.title)}</a><p>${escapeHtml(g.summary)}</p></li>`)
    .join('\n');
  return layout({
    title: 'Guides',
    section: 'guides',
    main: `<main class="guides-index prose">
<h1>Guides</h1>
<ul class="guide-list">
${items}
</ul>
</main>`,
  });
}

export function guidePage(guide: Guide, guides: readonly Guide[]): string {
  return layout({
    title: guide.title,
    section: 'guides',
    main: `<div class="guide-layout">
<nav class="guide-nav" aria-label="Guides">
<ul>
${guideLinks(guides, guide.name)}
</ul>
</nav>
<main class="prose">
${guide.html}
</main>
</div>`,
  });
}
