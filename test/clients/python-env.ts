/**
 * Python for the SDK tests: a venv the package is installed into with
 * `pip install --no-build-isolation` (no package index needed), and a runner that parses
 * `python -m unittest -v` into per-test outcomes.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../helpers/spawn.js';

export const PACKAGE_DIR = path.join(ROOT, 'api', 'clients', 'python');
export const TESTS_DIR = path.join(PACKAGE_DIR, 'tests');

const run = promisify(execFile);

/**
 * `--no-build-isolation` builds with what the environment already has: setuptools ≥ 65 and, for
 * setuptools before 70.1, the `wheel` package. The venv is made with `--system-site-packages` from
 * the first interpreter that has both (here Debian's python3-setuptools and python3-wheel).
 */
const BUILD_PROBE = [
  'import sys, ensurepip, setuptools, wheel',
  'assert sys.version_info >= (3, 9)',
  'assert int(setuptools.__version__.split(".")[0]) >= 65',
].join('; ');

export async function findBuildPython(): Promise<string> {
  const candidates = [process.env.SHA224D_PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => Boolean(c));
  for (const candidate of candidates) {
    try {
      await run(candidate, ['-c', BUILD_PROBE]);
      return candidate;
    } catch {
      // next candidate
    }
  }
  throw new Error(
    `no Python >= 3.9 with setuptools >= 65 and wheel among ${candidates.join(', ')} (Debian: apt-get install python3-venv python3-wheel)`,
  );
}

/** An interpreter of the oldest supported version, if the machine has one (pyenv or system). */
export function findPython39(): string | undefined {
  const pyenv = path.join(os.homedir(), '.pyenv', 'versions');
  const found = fs.existsSync(pyenv) ? fs.readdirSync(pyenv).filter((v) => v.startsWith('3.9.')) : [];
  const candidates = [...found.map((v) => path.join(pyenv, v, 'bin', 'python3.9')), '/usr/bin/python3.9'];
  return candidates.find((c) => fs.existsSync(c));
}

export interface Venv {
  python: string;
  installLog: string;
}

/** Copy the package (pip builds in place) and install the copy into a fresh venv under `dir`. */
export async function installIntoVenv(dir: string): Promise<Venv> {
  const builder = await findBuildPython();
  const copy = path.join(dir, 'sha224d-python');
  fs.cpSync(PACKAGE_DIR, copy, { recursive: true, filter: (src) => !/(^|\/)(build|__pycache__|[^/]*\.egg-info)$/.test(src) });
  const venv = path.join(dir, 'venv');
  await run(builder, ['-m', 'venv', '--system-site-packages', venv]);
  const python = path.join(venv, 'bin', 'python');
  const pip = await run(python, ['-m', 'pip', 'install', '--no-build-isolation', copy], {
    env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' },
  });
  return { python, installLog: pip.stdout + pip.stderr };
}

export type Outcome = 'ok' | 'skipped' | 'FAIL' | 'ERROR' | 'expected failure' | 'unexpected success';

export interface UnittestRun {
  exitCode: number | null;
  ran: number;
  /** `module.Class.test_name` → outcome. */
  outcomes: Map<string, Outcome>;
  stdout: string;
  stderr: string;
}

/** Environment variables the Python tests read; cleared so one run's values never leak into another. */
function withoutTestVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('SHA224D_')));
}

/** `python -m unittest -v MODULES` in the tests folder; bytecode is not written into the tree. */
export function runUnittest(python: string, modules: string[], env: Record<string, string>): Promise<UnittestRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-m', 'unittest', '-v', ...modules], {
      cwd: TESTS_DIR,
      env: { ...withoutTestVariables(process.env), PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => {
      const ran = /^Ran (\d+) tests? in /m.exec(stderr);
      const outcomes = new Map<string, Outcome>();
      // 3.11+: "test_x (module.Class.test_x) ... ok"; 3.9/3.10: "test_x (module.Class) ... ok".
      for (const m of stderr.matchAll(/^(test_\w+) \(([\w.]+)\) \.\.\. (ok|skipped|FAIL|ERROR|expected failure|unexpected success)/gm)) {
        const [, name, where, outcome] = m;
        const id = where!.endsWith(`.${name}`) ? where! : `${where}.${name}`;
        outcomes.set(id, outcome as Outcome);
      }
      resolve({ exitCode, ran: ran ? Number(ran[1]) : -1, outcomes, stdout, stderr });
    });
  });
}

/** Test methods written in the given modules, counted from their source. */
export function countTestMethods(modules: string[]): number {
  return modules.reduce(
    (sum, m) => sum + (fs.readFileSync(path.join(TESTS_DIR, `${m}.py`), 'utf8').match(/^\s+def test_\w+\(/gm) ?? []).length,
    0,
  );
}

export function pythonModules(): { offline: string[]; live: string[] } {
  const all = fs
    .readdirSync(TESTS_DIR)
    .filter((f) => /^test_\w+\.py$/.test(f))
    .map((f) => f.slice(0, -3))
    .sort();
  return { offline: all.filter((m) => !m.startsWith('test_live_')), live: all.filter((m) => m.startsWith('test_live_')) };
}
