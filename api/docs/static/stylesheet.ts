/**
 * /docs/assets/docs.css: the site's own styles (header, guides, prose), and the few overrides
 * Swagger UI needs on narrow screens. Served as a file so the CSP can refuse inline styles.
 */
export const DOCS_STYLESHEET = `
:root {
  --ink: #1d2330;
  --muted: #5b6475;
  --line: #dde1e8;
  --paper: #ffffff;
  --tint: #f5f7fa;
  --accent: #0b63c5;
  --header: #14213d;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--paper);
  color: var(--ink);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--accent); }

.site-header {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 4px 24px;
  padding: 12px 24px;
  background: var(--header);
  color: #fff;
}
.site-brand { color: #fff; font-weight: 700; font-size: 18px; text-decoration: none; margin-right: auto; }
.site-brand span { font-weight: 400; opacity: 0.75; }
.site-nav { display: flex; flex-wrap: wrap; gap: 4px 18px; }
.site-nav a { color: #d7e3ff; text-decoration: none; padding: 4px 0; border-bottom: 2px solid transparent; }
.site-nav a:hover { color: #fff; }
.site-nav a[aria-current="page"] { color: #fff; border-bottom-color: #7fb2ff; }

.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }

/* API reference */
.reference-intro {
  max-width: 1420px;
  margin: 20px auto 0;
  padding: 12px 16px;
  border: 1px solid #cfe0f7;
  border-left: 4px solid var(--accent);
  border-radius: 6px;
  background: #f3f8fe;
  color: var(--ink);
  font-size: 15px;
}
.reference-intro p { margin: 4px 0; }
.reference-ui .swagger-ui .wrapper, .reference-intro { width: calc(100% - 40px); }
.reference-ui .swagger-ui .wrapper { padding: 0; }
.reference-loading { padding: 20px; color: var(--muted); }
.reference-ui .swagger-ui .information-container .info { margin: 24px 0 12px; }
.reference-ui .swagger-ui .scheme-container { box-shadow: none; border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); }

/* Guides */
.guide-layout { display: grid; grid-template-columns: 200px minmax(0, 1fr); gap: 40px; max-width: 1260px; margin: 0 auto; padding: 24px; }
.guide-nav ul { list-style: none; margin: 0; padding: 0; position: sticky; top: 16px; }
.guide-nav li { margin: 0 0 4px; }
.guide-nav a { display: block; padding: 6px 10px; border-radius: 6px; color: var(--ink); text-decoration: none; }
.guide-nav a:hover { background: var(--tint); }
.guide-nav a[aria-current="page"] { background: #e6effc; color: var(--accent); font-weight: 600; }

.prose { min-width: 0; max-width: 1000px; }
.prose :is(h1, h2, h3) code { background: none; padding: 0; font-size: 0.9em; }
.guides-index { margin: 0 auto; padding: 24px; }
.guide-list { list-style: none; padding: 0; }
.guide-list li { padding: 14px 0; border-bottom: 1px solid var(--line); }
.guide-list a { font-size: 19px; font-weight: 600; text-decoration: none; }
.guide-list p { margin: 4px 0 0; color: var(--muted); }
.prose h1 { font-size: 32px; line-height: 1.2; margin: 0 0 16px; }
.prose h2 { font-size: 24px; margin: 36px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
.prose h3 { font-size: 19px; margin: 28px 0 8px; }
.prose p, .prose li { overflow-wrap: anywhere; }
.prose code { font-family: var(--mono); font-size: 0.88em; background: var(--tint); padding: 1px 4px; border-radius: 4px; }
.prose pre { background: #0f1726; color: #e7edf7; padding: 14px 16px; border-radius: 8px; overflow-x: auto; line-height: 1.45; }
.prose pre code { background: none; padding: 0; color: inherit; font-size: 13.5px; overflow-wrap: normal; }
.prose blockquote { margin: 0; padding: 4px 16px; border-left: 4px solid var(--line); color: var(--muted); }
.table-scroll { overflow-x: auto; margin: 16px 0; border: 1px solid var(--line); border-radius: 8px; }
.prose table { border-collapse: collapse; width: 100%; font-size: 14.5px; }
.prose th, .prose td { padding: 8px 12px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
.prose th { background: var(--tint); white-space: nowrap; }
.prose tr:last-child td { border-bottom: 0; }
.prose td code { overflow-wrap: normal; }
.align-center { text-align: center; }
.align-right { text-align: right; }

@media (max-width: 760px) {
  .site-header { padding: 10px 16px; }
  .site-nav { gap: 4px 14px; font-size: 15px; }
  .reference-intro { margin-top: 16px; font-size: 14.5px; }
  .reference-ui .swagger-ui .wrapper, .reference-intro { width: calc(100% - 24px); }
  .guide-layout { display: block; padding: 16px; }
  /* One row of guide links that scrolls sideways by itself; the page does not. */
  .guide-nav ul { position: static; display: flex; gap: 6px; margin: 0 -16px 16px; padding: 0 16px 6px; overflow-x: auto; }
  .guide-nav li { margin: 0; flex: none; }
  .guide-nav a { padding: 4px 12px; border: 1px solid var(--line); border-radius: 999px; font-size: 14px; white-space: nowrap; }
  .guides-index { padding: 16px; }
  .prose h1 { font-size: 26px; }
  .prose h2 { font-size: 21px; }
  /* Swagger UI's summary row: method and path on one line, the description under the path, for every operation alike. */
  .reference-ui .swagger-ui .opblock .opblock-summary-control { flex-wrap: nowrap; align-items: flex-start; min-width: 0; }
  .reference-ui .swagger-ui .opblock .opblock-summary-method { flex: none; min-width: 64px; }
  .reference-ui .swagger-ui .opblock .opblock-summary-path-description-wrapper { min-width: 0; padding-right: 4px; }
  .reference-ui .swagger-ui .opblock .opblock-summary-path { word-break: break-word; }
  .reference-ui .swagger-ui table { display: block; overflow-x: auto; }
}
`;
