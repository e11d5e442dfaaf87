/**
 * The repository stands on its own: a clone must be readable without any document that lives
 * beside it on the machine it was written on. Every tracked file (package-lock.json and binary files
 * aside) is searched for references to files outside the repository, and every citation of the
 * contract, `docs/api.md` followed by a quoted section name, must name a heading that exists there
 * (so links and the headings colleagues cite stay in step). The same holds for `docs/stack.md`.
 *
 * A section sign is allowed only where it cites a section of a named public standard (an RFC, FIPS,
 * NIST SP 800, SHAVS, AsyncAPI, W3C Trace Context): a bare one pointed into a document the reader
 * does not have.
 *
 * The patterns below are assembled from pieces, so this file does not match them itself.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/spawn.js';

const SECTION_SIGN = '\u00a7';
const OUTSIDE = '../' + 'shared/';
const join = (...parts: string[]): string => parts.join('');

/** Text that names a file outside the repository, and what each means. */
const FORBIDDEN: readonly { pattern: RegExp; what: string }[] = [
  { pattern: new RegExp(join('\\bSP', 'EC\\b')), what: 'the former out-of-tree contract (cite docs/api.md)' },
  { pattern: new RegExp(join('SP', 'EC\\.md')), what: 'the former out-of-tree contract (cite docs/api.md)' },
  { pattern: new RegExp(join('ST', 'ACK\\.md')), what: 'out-of-tree stack notes (cite docs/stack.md)' },
  { pattern: new RegExp(join('\\bST', 'YLE\\b')), what: 'an out-of-tree style guide' },
  ...['spec', 'vectors', 'STACK', 'hooks'].map((name) => ({
    pattern: new RegExp(`\\.\\./shared/${name}`),
    what: `${OUTSIDE}${name}, outside the repository`,
  })),
];

/** A public standard whose sections may be cited by number. */
const STANDARD = String.raw`(?:RFC ?\d{3,5}(?:bis)?|FIPS ?\d+-\d+|SP ?800-\d+[A-Z]?|SHAVS|AsyncAPI(?: \d+\.\d+)?|Trace Context|trace-context\/?)`;
/** What may stand before a section sign: a standard, then possibly earlier sections of it ("RFC 6749 x2.3 and "). */
const CITES_STANDARD = new RegExp(`${STANDARD}\\s*(?:${SECTION_SIGN}[^${SECTION_SIGN}]{0,60})*$`);
const COMMENT_LEADER = /^\s*(?:\*|\/\/|#+|-)?\s*/;

/** `docs/<name>.md "A"` and `docs/<name>.md "A", "B"`, also inside JS strings (escaped quotes). */
const citationsOf = (name: string): RegExp =>
  new RegExp(`docs/${name}\\.md \\\\?"([^"\\\\\\n]+)\\\\?"((?:, \\\\?"[^"\\\\\\n]+\\\\?")*)`, 'g');
const QUOTED = /\\?"([^"\\\n]+)\\?"/g;

/** The contract's sections everyone cites; their GitHub anchors must not move. */
const CONTRACT_SECTIONS = [
  'Overview',
  'Resources',
  'Key states',
  'Endpoints',
  'v1 Set A',
  'v1 Set B',
  'v2 endpoints',
  'WebSocket',
  'Client-side library',
  'Authentication',
  'Events',
  'Errors',
  'v1 errors',
  'v2 errors',
  'Limits',
  'v1 limits by tier',
  'v1 limits by plan',
  'v2 limits by plan',
  'Other limits',
  'Versioning',
];

const BINARY_EXTENSIONS = /\.(?:png|jpe?g|gif|ico|gz|br|woff2?|sqlite|db|tgz|zip)$/;

interface TrackedFile {
  path: string;
  lines: string[];
}

function trackedTextFiles(): TrackedFile[] {
  const names = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((name) => name !== '' && name !== 'package-lock.json' && !BINARY_EXTENSIONS.test(name));
  const files: TrackedFile[] = [];
  for (const name of names) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(ROOT, name));
    } catch {
      continue; // deleted in the working tree, not yet from the index
    }
    if (bytes.includes(0)) continue;
    files.push({ path: name, lines: bytes.toString('utf8').split('\n') });
  }
  return files;
}

function headingsOf(markdown: string): Set<string> {
  const headings = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) headings.add(m[1]!);
  }
  return headings;
}

/** Section signs on a line that do not cite a named standard (the previous line counts, for wrapped comments). */
function bareSectionSigns(line: string, previous: string): boolean {
  for (let at = line.indexOf(SECTION_SIGN); at !== -1; at = line.indexOf(SECTION_SIGN, at + 1)) {
    const before = line.slice(0, at);
    const context =
      before.trim() === '' || COMMENT_LEADER.exec(before)?.[0] === before ? previous.trim() + ' ' : previous.trim() + ' ' + before;
    if (!CITES_STANDARD.test(context)) return true;
  }
  return false;
}

const FILES = trackedTextFiles();

describe('the repository stands on its own', () => {
  it('reads every tracked text file', () => {
    expect(FILES.length).toBeGreaterThan(300);
    expect(FILES.some((f) => f.path === 'docs/api.md')).toBe(true);
  });

  it('refers to no file outside the repository', () => {
    const offending: string[] = [];
    for (const file of FILES)
      file.lines.forEach((line, i) => {
        for (const { pattern, what } of FORBIDDEN)
          if (pattern.test(line)) offending.push(`${file.path}:${i + 1}: ${what}: ${line.trim().slice(0, 160)}`);
        if (line.includes(SECTION_SIGN) && bareSectionSigns(line, file.lines[i - 1] ?? ''))
          offending.push(`${file.path}:${i + 1}: a section sign that cites no named standard: ${line.trim().slice(0, 160)}`);
      });
    expect(offending, `references to files outside the repository:\n${offending.join('\n')}`).toEqual([]);
  });

  it('has every section of the contract that the code and docs cite by name', () => {
    const headings = headingsOf(readFileSync(path.join(ROOT, 'docs', 'api.md'), 'utf8'));
    expect(CONTRACT_SECTIONS.filter((s) => !headings.has(s))).toEqual([]);
  });

  for (const doc of ['api', 'stack']) {
    it(`cites only sections that exist in docs/${doc}.md`, () => {
      const headings = headingsOf(readFileSync(path.join(ROOT, 'docs', `${doc}.md`), 'utf8'));
      const unknown: string[] = [];
      let cited = 0;
      for (const file of FILES)
        file.lines.forEach((line, i) => {
          for (const m of line.matchAll(citationsOf(doc))) {
            const names = [m[1]!, ...[...(m[2] ?? '').matchAll(QUOTED)].map((q) => q[1]!)];
            for (const name of names) {
              if (/^<.*>$/.test(name)) continue; // the placeholder of a sentence explaining how to cite
              cited++;
              if (!headings.has(name)) unknown.push(`${file.path}:${i + 1}: docs/${doc}.md has no section "${name}"`);
            }
          }
        });
      expect(unknown, `citations of sections that do not exist:\n${unknown.join('\n')}`).toEqual([]);
      expect(cited).toBeGreaterThan(doc === 'api' ? 100 : 2);
    });
  }
});
