/**
 * promtool from Debian's `prometheus` package (2.42): checks rule files, runs their unit tests,
 * checks configs, and — through a generated file of recording rules — the syntax of any PromQL
 * expression, all offline. Tests that need it are skipped, saying why, when it is absent.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const PROMTOOL_MISSING = 'promtool is not installed: apt-get install -y prometheus';

function locate(): string | undefined {
  const found = spawnSync('promtool', ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return found.status === 0 ? 'promtool' : undefined;
}

export const promtool: string | undefined = locate();

export interface RunResult {
  code: number;
  output: string;
}

/** Run promtool with a deadline; resolves with its exit code and its stdout and stderr together. */
export function runPromtool(args: string[], cwd?: string): Promise<RunResult> {
  if (!promtool) return Promise.reject(new Error(PROMTOOL_MISSING));
  return new Promise((resolve, reject) => {
    execFile(promtool, args, { cwd, timeout: 60_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(new Error(`promtool did not run: ${err.message}`, { cause: err }));
      resolve({ code: typeof err?.code === 'number' ? err.code : 0, output: `${stdout}${stderr}` });
    });
  });
}

/**
 * Check the syntax of PromQL expressions: each becomes a recording rule of a temporary rule file
 * (promtool has no offline query parser, but it parses every rule's `expr`). Each expression is
 * keyed by a name, which the output shows in place of its rule's name.
 */
export async function checkPromQlSyntax(expressions: ReadonlyMap<string, string>): Promise<RunResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sha224d-promql-'));
  try {
    const names = [...expressions.keys()];
    const rules = [...expressions.values()].map((expr, i) => ({ record: `check:expr_${i}`, expr }));
    const file = path.join(dir, 'expressions.yml');
    // JSON is YAML: no escaping rules to get wrong.
    writeFileSync(file, JSON.stringify({ groups: [{ name: 'syntax', rules }] }, null, 2));
    const result = await runPromtool(['check', 'rules', file]);
    return { ...result, output: result.output.replace(/check:expr_(\d+)/g, (_, i: string) => names[Number(i)] ?? i) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
