/**
 * The guides: every `docs/*.md` of the repository, rendered once per process (markdown.ts) and
 * served as /docs/guides/<name>. The README is the repository's front page, not a guide; a link to
 * it leads to the docs home.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Heading } from './markdown.js';

export const DOCS_BASE = '/docs';
export const GUIDES_BASE = `${DOCS_BASE}/guides`;

export interface Guide {
  /** File name without `.md`: the page's last path segment. */
  name: string;
  title: string;
  /** The first paragraph as plain text, for the index. */
  summary: string;
  html: string;
  headings: Heading[];
}

/** The repository root, found from this file both in the sources (api/docs/) and in the bundle (dist/). */
export function repositoryRoot(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'sha224d') return dir;
    if (path.dirname(dir) === dir) throw new Error('the sha224d repository root (package.json) was not found above ' + import.meta.dirname);
  }
}

const SUMMARY_LENGTH = 200;

function firstParagraph(source: string): string {
  const paragraph = source
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .find((block) => block !== '' && !/^(#|```|\||<!--|[-*] |\d+\. )/.test(block));
  const text = (paragraph ?? '')
    .replace(/\s+/g, ' ')
    .replace(/`|\*\*/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  if (text.length <= SUMMARY_LENGTH) return text;
  const cut = text.slice(0, SUMMARY_LENGTH);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1))} …`;
}

/**
 * Reads and renders every guide of `docsDir`; decisions last, the rest by name. The renderer
 * (markdown-it, sanitize-html) is imported on the first call: a node that never serves a guide
 * never loads it.
 */
export async function loadGuides(docsDir = path.join(repositoryRoot(), 'docs')): Promise<Guide[]> {
  const { renderMarkdown } = await import('./markdown.js');
  const names = readdirSync(docsDir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3))
    .sort((a, b) => Number(a === 'decisions') - Number(b === 'decisions') || a.localeCompare(b));
  const known = new Set(names);
  const pageOf = (repoPath: string): string | undefined => {
    if (repoPath === 'README.md') return DOCS_BASE;
    const m = /^docs\/([^/]+)\.md$/.exec(repoPath);
    return m && known.has(m[1]!) ? `${GUIDES_BASE}/${m[1]}` : undefined;
  };
  return names.map((name) => {
    const source = readFileSync(path.join(docsDir, `${name}.md`), 'utf8');
    const rendered = renderMarkdown(source, { source: `docs/${name}.md`, pageOf });
    return { name, title: rendered.title ?? name, summary: firstParagraph(source), html: rendered.html, headings: rendered.headings };
  });
}
