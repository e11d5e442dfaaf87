/**
 * The machinery of the docs-commands test (doc-commands.test.ts), tested on its own: which blocks
 * are found and skipped, how documented answers are read and compared, and that a session really
 * fails on a failing command or a wrong answer, substitutes the first-start key, keeps the work
 * tree clean and talks to its own private loopback.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/spawn.js';
import { checkAnswer, isErrorEnvelope, jsonValues } from './commands/answers.js';
import { expectedAnswers, shellBlocks } from './commands/extract.js';
import { runSession, segments, sessionScript, startsOwnServer, UNTRACKED_END } from './commands/sandbox.js';

const FENCE = '```';

describe('shellBlocks', () => {
  it('finds sh, bash and shell blocks (also inside list items) with their "not run" markers', () => {
    const md = [
      '# Doc',
      '',
      `${FENCE}sh`,
      'echo one',
      FENCE,
      '',
      '<!-- not run: needs a cluster somewhere -->',
      `${FENCE}bash`,
      'kubectl apply',
      FENCE,
      '',
      '1. Step:',
      '',
      '   <!-- not run: needs the public internet -->',
      `   ${FENCE}shell`,
      '   curl https://example.com',
      `   ${FENCE}`,
      '',
      `${FENCE}js`,
      'console.log(1)',
      FENCE,
      '',
      `${FENCE}text`,
      '$ not a command',
      FENCE,
    ].join('\n');
    expect(shellBlocks(md)).toEqual([
      { line: 3, code: 'echo one\n' },
      { line: 8, code: 'kubectl apply\n', notRun: 'needs a cluster somewhere' },
      { line: 15, code: 'curl https://example.com\n', notRun: 'needs the public internet' },
    ]);
  });
});

describe('expectedAnswers', () => {
  it('reads JSON, status and URL answers, joins continued JSON, skips prose comments and heredocs', () => {
    const code = [
      'curl -s a',
      '# {"a":1,',
      '#  "b":2}',
      'curl -s b   # 202 {job_id} (a trailing note, not an answer)',
      '# without an index: a prose comment',
      'curl -s -o /dev/null -w "%{http_code}" c',
      '# 200',
      'echo "$URL"',
      '# https://x.example/cb?code=…',
      "python - <<'EOF'",
      'x = 1',
      '# {"inside": "a heredoc"}',
      'EOF',
    ].join('\n');
    expect(expectedAnswers(code)).toEqual([
      { startLine: 1, endLine: 2, text: '{"a":1, "b":2}' },
      { startLine: 6, endLine: 6, text: '200' },
      { startLine: 8, endLine: 8, text: 'https://x.example/cb?code=…' },
    ]);
  });
});

describe('checkAnswer', () => {
  it('accepts what the docs show, with elisions and run-dependent values', () => {
    expect(
      checkAnswer(
        '{"success":true,"hash":"23097d22…","timestamp":"2026-11-21T12:00:00Z","used":12}',
        '{"success":true,"hash":"23097d223405","timestamp":"2030-01-01T00:00:00Z","used":99}\n',
      ),
    ).toEqual([]);
    expect(checkAnswer('{"a":"…","b":…,…}', '{"a":{"deep":1},"b":[1],"c":3}')).toEqual([]);
    expect(
      checkAnswer('400 {"error":{"code":"INVALID_INPUT","details":{…}}}', '{"error":{"code":"INVALID_INPUT","details":{"info":"x"}}}'),
    ).toEqual([]);
    expect(checkAnswer('{"results":[{"id":"a"},…]}', '{"results":[{"id":"a"},{"id":"b"}]}')).toEqual([]);
    expect(checkAnswer('200', '200\n')).toEqual([]);
    expect(checkAnswer('https://app.example/cb?code=s224ac_…&state=xyz', 'https://app.example/cb?code=s224ac_abc&state=xyz')).toEqual([]);
  });

  it('refuses a different value, a missing or extra key, a wrong type, a wrong length, a wrong text', () => {
    expect(checkAnswer('{"hash":"23097d22…"}', '{"hash":"ffff"}')).toEqual(['$.hash: "ffff" does not match "23097d22…"']);
    expect(checkAnswer('{"match":true}', '{"match":false}')).toEqual(['$.match: expected true, got false']);
    expect(checkAnswer('{"a":1,"b":2}', '{"a":1}')).toEqual(['$.b: missing']);
    expect(checkAnswer('{"a":1}', '{"a":1,"b":2}')).toEqual(['$.b: not in the documented answer']);
    expect(checkAnswer('{"timestamp":"…","used":1}', '{"timestamp":"t","used":"1"}')).toEqual(['$.used: expected a number, got "1"']);
    expect(checkAnswer('{"r":[1,2]}', '{"r":[1]}')).toEqual(['$.r: expected 2 items, got 1']);
    expect(checkAnswer('200', '405')).toHaveLength(1);
    expect(checkAnswer('{"a":1}', 'curl: (7) Failed to connect')[0]).toMatch(/^printed text is not JSON/);
    expect(checkAnswer('{id, success}', '{}')[0]).toMatch(/^the documented answer is not JSON/);
  });
});

describe('jsonValues / isErrorEnvelope', () => {
  it('finds every JSON value in concatenated curl output and tells error envelopes apart', () => {
    const values = jsonValues('{"success":true}{"success":false,"error":{"code":"X"}}\nnot json [x] {"error":{"code":"Y"}}');
    expect(values).toEqual([{ success: true }, { success: false, error: { code: 'X' } }, { error: { code: 'Y' } }]);
    expect(values.map(isErrorEnvelope)).toEqual([false, true, true]);
  });
});

describe('a session in the namespaces', () => {
  it(
    'runs blocks against a fresh instance on localhost:8080, with the first-start key, and reports failures and wrong answers',
    { timeout: 120_000 },
    async () => {
      const md = [
        `${FENCE}sh`,
        'KEY=s224_…',
        `curl -s -H "X-API-Key: $KEY" -H 'content-type: application/json' -d '{"data":"abc"}' localhost:8080/v2/hash`,
        '# {"success":true,"hash":"23097d22…",…}',
        'echo \'{"n":1}\'',
        '# {"n":2}',
        'echo made > made-by-the-docs.txt',
        FENCE,
        '',
        `${FENCE}sh`,
        'false',
        'echo never',
        FENCE,
      ].join('\n');
      const blocks = shellBlocks(md);
      expect(startsOwnServer(blocks)).toBe(false);
      const { script, answers } = sessionScript(blocks);
      const result = await runSession(ROOT, script, 100_000);
      const parts = segments(result.stdout);
      const printed = (id: string): string => parts.find((p) => p.marker === `ANSWER ${id}`)!.before;
      expect(answers.map((a) => a.id)).toEqual(['1.0', '1.1']);
      expect(checkAnswer(answers[0]!.text, printed('1.0'))).toEqual([]);
      expect(checkAnswer(answers[1]!.text, printed('1.1'))).toEqual(['$.n: expected 2, got 1']);
      expect(parts.map((p) => p.marker)).toEqual([
        'BLOCK 1 START',
        'ANSWER 1.0',
        'ANSWER 1.1',
        'BLOCK 1 END',
        'BLOCK 10 START',
        'FAILED 1: false',
        '(end)',
      ]);
      expect(result.stdout).not.toContain('never');
      expect(result.code).toBe(1);
      expect(existsSync(path.join(ROOT, 'made-by-the-docs.txt'))).toBe(false);
    },
  );

  it('lists the files the examples leave in the checkout that git does not ignore', { timeout: 120_000 }, async () => {
    const md = [`${FENCE}sh`, 'echo left > left-by-the-docs.txt', 'mkdir -p data && echo ignored > data/left-by-the-docs.txt', FENCE].join(
      '\n',
    );
    const result = await runSession(ROOT, sessionScript(shellBlocks(md)).script, 100_000);
    const parts = segments(result.stdout);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(parts.find((p) => p.marker === UNTRACKED_END)?.before.trim()).toBe('left-by-the-docs.txt');
    expect(existsSync(path.join(ROOT, 'left-by-the-docs.txt'))).toBe(false);
  });
});
