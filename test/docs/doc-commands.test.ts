/**
 * Every shell example of README.md and docs/*.md works as printed. Per document, its ```sh blocks
 * run in order in one bash session (variables carry over; each block starts in the repository
 * root, as a reader runs them), against a fresh embedded instance on the document's own address
 * (commands/sandbox.ts). The test asserts that every block runs to its end with every command
 * exiting 0 (`set -e -o pipefail`), that each answer a block shows in a `# {…}` comment matches
 * what was printed (commands/answers.ts), that no other output is an error envelope, and that the
 * examples leave no file in the checkout that git does not ignore.
 *
 * A block that needs what this machine cannot offer (an external URL, a Kubernetes cluster, a
 * package index) is marked in the markdown with `<!-- not run: why -->` right before it; they are
 * listed below, each with its reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/spawn.js';
import { checkAnswer, isErrorEnvelope, jsonValues } from './commands/answers.js';
import { shellBlocks, type ShellBlock } from './commands/extract.js';
import { runSession, segments, sessionScript, startsOwnServer, UNTRACKED_END } from './commands/sandbox.js';

const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const blocksOf = (doc: string): ShellBlock[] => shellBlocks(readFileSync(path.join(ROOT, doc), 'utf8'));

describe('shell examples of README.md and docs/*.md', () => {
  it('lists the blocks marked "not run", each with its reason', () => {
    const marked = DOCUMENTS.flatMap((doc) =>
      blocksOf(doc).flatMap((b) => (b.notRun === undefined ? [] : [{ doc, line: b.line, why: b.notRun }])),
    );
    console.info(`Shell blocks not run (${marked.length}):\n${marked.map((m) => `  ${m.doc}:${m.line}  ${m.why}`).join('\n')}`);
    for (const m of marked) expect(m.why, `${m.doc}:${m.line}`).toMatch(/^(needs|starts|installs|runs) .{8,}/);
    const runnable = DOCUMENTS.flatMap((doc) => blocksOf(doc).filter((b) => b.notRun === undefined));
    expect(runnable.length).toBeGreaterThan(marked.length);
  });

  for (const doc of DOCUMENTS) {
    const blocks = blocksOf(doc);
    const runnable = blocks.filter((b) => b.notRun === undefined);
    if (runnable.length === 0) continue;
    it(
      `${doc}: ${runnable.length} blocks run as printed${startsOwnServer(blocks) ? ' (the document starts the service)' : ''}`,
      { timeout: 420_000 },
      async () => {
        const { script, answers } = sessionScript(blocks);
        const result = await runSession(ROOT, script, 400_000);
        const parts = segments(result.stdout);
        const context = (): string =>
          `\n--- stdout (end) ---\n${result.stdout.slice(-4000)}\n--- stderr (end) ---\n${result.stderr.slice(-3000)}`;

        const failed = parts.find((p) => p.marker.startsWith('FAILED') || p.marker === 'INSTANCE FAILED');
        const started = parts.filter((p) => / START$/.test(p.marker)).map((p) => p.marker);
        const ended = parts.filter((p) => / END$/.test(p.marker)).map((p) => p.marker.replace(/ END$/, ''));
        const stuck = started.map((m) => m.replace(/ START$/, '')).find((m) => !ended.includes(m));
        expect(failed?.marker, `${doc}: ${stuck ?? 'setup'} failed${context()}`).toBeUndefined();
        expect(result.code, `${doc}: the session exited ${result.code}${context()}`).toBe(0);
        expect(ended).toEqual(runnable.map((b) => `BLOCK ${b.line}`));

        const problems: string[] = [];
        for (const answer of answers) {
          const printed = parts.find((p) => p.marker === `ANSWER ${answer.id}`);
          if (printed === undefined) problems.push(`${doc}:${answer.block.line}: no output captured for ${answer.text}`);
          else for (const p of checkAnswer(answer.text, printed.before)) problems.push(`${doc}:${answer.block.line}: ${p}`);
        }
        for (const part of parts.filter((p) => !p.marker.startsWith('ANSWER '))) {
          for (const value of jsonValues(part.before).filter(isErrorEnvelope)) {
            problems.push(`${doc}: an undocumented error answer before ${part.marker}: ${JSON.stringify(value)}`);
          }
        }
        expect(problems, context()).toEqual([]);
        // Examples that write files write them elsewhere (a temp dir) or where git ignores them.
        const left = parts.find((p) => p.marker === UNTRACKED_END);
        expect(left?.before.trim().split('\n').filter(Boolean), `${doc}: files the examples left in the checkout`).toEqual([]);
      },
    );
  }
});
