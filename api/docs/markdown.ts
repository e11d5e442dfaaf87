/**
 * Markdown → HTML for the guides under /docs/guides: markdown-it (CommonMark and GFM tables), then
 * sanitize-html with an allow-list, so whatever a guide holds, the page carries no script, no
 * event handler, no style attribute (the docs CSP forbids them) and no link to a script: URL.
 * Headings get GitHub-style ids; links between guides point at their pages.
 */
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

export interface Heading {
  level: number;
  id: string;
  text: string;
}

export interface RenderedMarkdown {
  /** The first level-1 heading's text, if any. */
  title: string | undefined;
  html: string;
  headings: Heading[];
}

export interface RenderOptions {
  /** The document's path in the repository, e.g. `docs/auth.md`: relative links resolve from it. */
  source: string;
  /** Repository path of a markdown file → its page URL, or undefined when it has no page. */
  pageOf(repoPath: string): string | undefined;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Where a link in `source` should point: guides by page, anchors and absolute URLs as written; undefined drops the link. */
export function resolveLink(href: string, options: RenderOptions): string | undefined {
  if (href.startsWith('#') || /^(https?:|mailto:)/i.test(href)) return href;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return undefined;
  const hashAt = href.indexOf('#');
  const target = hashAt === -1 ? href : href.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : href.slice(hashAt);
  const repoPath = path.posix.normalize(path.posix.join(path.posix.dirname(options.source), target));
  const page = options.pageOf(repoPath);
  return page === undefined ? undefined : `${page}${fragment}`;
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'a',
    'ul',
    'ol',
    'li',
    'code',
    'pre',
    'blockquote',
    'em',
    'strong',
    'del',
    's',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'hr',
    'br',
    'div',
  ],
  allowedAttributes: { a: ['href', 'title'], h1: ['id'], h2: ['id'], h3: ['id'], h4: ['id'], h5: ['id'], h6: ['id'], ol: ['start'] },
  allowedClasses: {
    code: [/^language-[a-z0-9-]+$/],
    div: ['table-scroll'],
    th: [/^align-(left|center|right)$/],
    td: [/^align-(left|center|right)$/],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  // markdown-it writes column alignment as a style attribute, which the CSP would refuse: a class instead.
  transformTags: Object.fromEntries(
    ['th', 'td'].map((tag) => [
      tag,
      (tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag => {
        const align = /text-align:\s*(left|center|right)/.exec(attribs.style ?? '')?.[1];
        const kept: sanitizeHtml.Attributes = align === undefined ? {} : { class: `align-${align}` };
        return { tagName, attribs: kept };
      },
    ]),
  ),
};

/** Renders one markdown document to sanitised HTML. */
export function renderMarkdown(source: string, options: RenderOptions): RenderedMarkdown {
  // Raw HTML is parsed (so comments such as the docs' "not run" markers vanish) and then sanitised.
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
  const headings: Heading[] = [];
  md.core.ruler.push('sha224d_headings_and_links', (state) => {
    const used = new Map<string, number>();
    state.tokens.forEach((token, i) => {
      if (token.type === 'heading_open') {
        const text =
          state.tokens[i + 1]?.children?.map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : '')).join('') ?? '';
        const base = slugify(text) || 'section';
        const seen = used.get(base) ?? 0;
        used.set(base, seen + 1);
        const id = seen === 0 ? base : `${base}-${seen}`;
        token.attrSet('id', id);
        headings.push({ level: Number(token.tag.slice(1)), id, text });
      }
      for (const child of token.children ?? []) {
        if (child.type !== 'link_open') continue;
        const href = resolveLink(String(child.attrGet('href') ?? ''), options);
        if (href === undefined) child.attrs = (child.attrs ?? []).filter(([name]) => name !== 'href');
        else child.attrSet('href', href);
      }
    });
  });
  // Wide tables scroll inside their own box instead of widening the page on small screens.
  md.renderer.rules.table_open = () => '<div class="table-scroll"><table>\n';
  md.renderer.rules.table_close = () => '</table></div>\n';
  const html = sanitizeHtml(md.render(source), SANITIZE);
  return { title: headings.find((h) => h.level === 1)?.text, html, headings };
}
