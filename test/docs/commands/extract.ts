/**
 * The shell examples of a markdown document: every fenced block whose info string is `sh`, `bash`
 * or `shell` (found by markdown-it, so blocks inside list items count too), with the HTML comment
 * `<!-- not run: reason -->` that may stand directly before it, and the expected answers its
 * comments show.
 */
import MarkdownIt from 'markdown-it';

export interface ShellBlock {
  /** 1-based line of the opening fence in the document. */
  line: number;
  /** The block's text, dedented as markdown reads it. */
  code: string;
  /** Set when the document marks the block `<!-- not run: reason -->`. */
  notRun?: string;
}

const SHELLS = new Set(['sh', 'bash', 'shell']);
const NOT_RUN = /^<!--\s*not run:\s*([\s\S]*?)\s*-->\s*$/;

export function shellBlocks(markdown: string): ShellBlock[] {
  const tokens = new MarkdownIt({ html: true }).parse(markdown, {});
  const blocks: ShellBlock[] = [];
  tokens.forEach((token, i) => {
    if (token.type !== 'fence' || !SHELLS.has(token.info.trim().split(/\s+/)[0] ?? '')) return;
    // The marker is the html_block right before the fence (list-item wrappers in between are fine).
    let j = i - 1;
    while (j >= 0 && /^(list_item_open|bullet_list_open|ordered_list_open|paragraph_close)$/.test(tokens[j]!.type)) j -= 1;
    const previous = tokens[j];
    const marker = previous?.type === 'html_block' ? NOT_RUN.exec(previous.content.trim()) : null;
    blocks.push({ line: (token.map?.[0] ?? 0) + 1, code: token.content, ...(marker ? { notRun: marker[1] } : {}) });
  });
  return blocks;
}

/** An expected answer shown in a block: the comment's text and the line (in the block) it ends. */
export interface ExpectedAnswer {
  /** 0-based index of the first comment line within the block. */
  startLine: number;
  /** 0-based index of the last comment line. */
  endLine: number;
  text: string;
}

/**
 * A standalone comment line right after a command that shows what it prints: JSON (`# {…}`,
 * `# […]`), a status code (`# 200`, `# 400 {…}`) or a URL. JSON may continue on further comment
 * lines until its brackets close. Heredoc bodies are skipped (their `#` lines belong to the program).
 */
export function expectedAnswers(code: string): ExpectedAnswer[] {
  const lines = code.split('\n');
  const answers: ExpectedAnswer[] = [];
  let heredoc: string | undefined;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (heredoc !== undefined) {
      if (line.trim() === heredoc) heredoc = undefined;
      continue;
    }
    const opens = /<<-?\s*['"]?([A-Za-z_]+)['"]?/.exec(line);
    if (opens && !line.trimStart().startsWith('#')) {
      heredoc = opens[1];
      continue;
    }
    const first = /^\s*#\s?((\{|\[|\d{3}\b|https?:\/\/).*)$/.exec(line);
    if (!first || i === 0 || /^\s*#/.test(lines[i - 1]!)) continue;
    let text = first[1]!;
    let end = i;
    while (depth(text) > 0 && end + 1 < lines.length && /^\s*#/.test(lines[end + 1]!)) {
      end += 1;
      text += lines[end]!.replace(/^\s*#\s?/, '');
    }
    answers.push({ startLine: i, endLine: end, text: text.trim() });
    i = end;
  }
  return answers;
}

/** Open brackets minus closed ones, outside strings. */
function depth(text: string): number {
  let d = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') d += 1;
    else if (c === '}' || c === ']') d -= 1;
  }
  return d;
}
