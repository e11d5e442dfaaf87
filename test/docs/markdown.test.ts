/**
 * The guides' renderer: CommonMark + tables, heading anchors as GitHub makes them, links between
 * guides rewritten to their pages, and a sanitiser that leaves no script, handler, style or
 * dangerous URL whatever the markdown holds.
 */
import { describe, expect, it } from 'vitest';
import { loadGuides } from '../../api/docs/guides.js';
import { renderMarkdown, resolveLink, slugify, type RenderOptions } from '../../api/docs/markdown.js';

const options: RenderOptions = {
  source: 'docs/auth.md',
  pageOf: (p) => (p === 'docs/limits.md' ? '/docs/guides/limits' : p === 'README.md' ? '/docs' : undefined),
};
const render = (md: string): string => renderMarkdown(md, options).html;

describe('renderMarkdown', () => {
  it('renders headings with unique GitHub-style ids, code, lists and tables', () => {
    const out = renderMarkdown(
      '# Title `x`\n\n## Keys & tokens\n\n## Keys & tokens\n\n- a\n- `b`\n\n| A | B |\n|---|--:|\n| 1 | 2 |\n\n```sh\necho hi\n```\n',
      options,
    );
    expect(out.title).toBe('Title x');
    expect(out.headings.map((h) => h.id)).toEqual(['title-x', 'keys--tokens', 'keys--tokens-1']);
    expect(out.html).toContain('<h2 id="keys--tokens">Keys &amp; tokens</h2>');
    expect(out.html).toContain('<div class="table-scroll"><table>');
    expect(out.html).toContain('<td class="align-right">2</td>');
    expect(out.html).toContain('<pre><code class="language-sh">echo hi\n</code></pre>');
    expect(out.html).not.toContain('style=');
  });

  it('points links between guides at their pages and drops links with no page', () => {
    expect(render('[l](limits.md#headers) [r](../README.md) [s](../shared/errors.ts) [w](https://example.com/) [a](#x)')).toBe(
      '<p><a href="/docs/guides/limits#headers">l</a> <a href="/docs">r</a> <a>s</a> <a href="https://example.com/">w</a> <a href="#x">a</a></p>\n',
    );
    expect(resolveLink('javascript:alert(1)', options)).toBeUndefined();
    expect(resolveLink('//evil.example/x', options)).toBeUndefined();
  });

  it('removes scripts, handlers, styles, frames and dangerous URLs; comments vanish', () => {
    const hostile = [
      '<!-- not run: a marker for the docs test -->',
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '<p style="color:red" onclick="alert(1)">styled</p>',
      '<iframe src="https://evil.example"></iframe>',
      '<a href="javascript:alert(1)">js</a> <a href="data:text/html,x">data</a>',
      '[md-js](javascript:alert(1))',
      '<svg><script>alert(1)</script></svg>',
      '<form action="https://evil.example"><input name=x></form>',
    ].join('\n\n');
    const html = render(hostile);
    for (const banned of [
      '<script',
      'onerror',
      'onclick',
      'style=',
      '<iframe',
      'href="javascript',
      'href="data',
      '<svg',
      '<form',
      '<input',
      '<img',
      'not run',
    ]) {
      expect(html).not.toContain(banned);
    }
    expect(html).toContain('styled');
  });

  it('slugify keeps letters, digits, hyphens and underscores', () => {
    expect(slugify('WebSocket `/v2/ws`')).toBe('websocket-v2ws');
    expect(slugify('Plans → tiers (v1)')).toBe('plans--tiers-v1');
    expect(slugify('snake_case and Ünïcode')).toBe('snake_case-and-ünïcode');
  });
});

describe('loadGuides', () => {
  it('renders every docs/*.md with its title and a summary, decisions last', async () => {
    const guides = await loadGuides();
    expect(guides.length).toBeGreaterThanOrEqual(5);
    expect(guides.at(-1)!.name).toBe('decisions');
    for (const g of guides) {
      expect(g.title.length, g.name).toBeGreaterThan(3);
      expect(g.summary.length, g.name).toBeGreaterThan(20);
      expect(g.html).toContain('<h1 id=');
      // An attribute (a space before it), not text such as `SOAK_SECONDS=` inside a code span.
      expect(g.html).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
    }
  });
});
