/**
 * The Python SDK (api/clients/python), installed with `pip install --no-build-isolation` into a
 * fresh venv, runs its unittest suite: the offline tests (stub servers: retries, uploads, errors)
 * once, and the live tests against `npm start`'s embedded server (with the 1 GiB stream) and
 * against one distributed API node with a worker. Each case asserts every Python test ran and
 * passed, and prints the counts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOG, ERROR_CODES } from '../../shared/errors.js';
import { countTestMethods, findPython39, installIntoVenv, pythonModules, runUnittest, type UnittestRun, type Venv } from './python-env.js';
import { startDistributedTarget, startEmbeddedTarget, type LiveTarget } from './python-targets.js';

const { offline, live } = pythonModules();

function summary(label: string, result: UnittestRun): string {
  const skipped = [...result.outcomes.values()].filter((o) => o === 'skipped').length;
  return `python unittest, ${label}: ${result.ran} tests, ${result.ran - skipped} passed, ${skipped} skipped`;
}

/** Every test of `modules` ran and none failed; the output is shown when one did. */
function expectAllPassed(result: UnittestRun, modules: string[]): void {
  const failed = [...result.outcomes].filter(([, o]) => o !== 'ok' && o !== 'skipped');
  expect(failed, result.stderr).toEqual([]);
  expect(result.exitCode, result.stderr).toBe(0);
  expect(result.ran).toBe(countTestMethods(modules));
  expect(result.outcomes.size).toBe(result.ran);
}

describe('Python SDK against live servers', () => {
  let tmp: string;
  let venv: Venv;
  const targets: LiveTarget[] = [];
  const liveRuns: UnittestRun[] = [];

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-pysdk-'));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-pysdk-data-'));
    const started = await Promise.allSettled([startEmbeddedTarget(dataDir), startDistributedTarget()]);
    for (const s of started) if (s.status === 'fulfilled') targets.push(s.value);
    const failure = started.find((s) => s.status === 'rejected');
    if (failure) throw failure.reason;
    venv = await installIntoVenv(tmp);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(targets.map((t) => t.close()));
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('installs with pip install --no-build-isolation into a venv', () => {
    expect(venv.installLog).toMatch(/Successfully installed sha224d-0\.1\.0/);
  });

  it('offline tests pass (stub servers: retries on 429 Retry-After: 1 and 503 twice, uploads, errors)', async () => {
    const result = await runUnittest(venv.python, offline, { SHA224D_TEST_INSTALLED: '1' });
    console.log(summary('offline', result));
    expectAllPassed(result, offline);
    expect(result.outcomes.get('test_retry.RetryAfterAndBackoff.test_429_with_retry_after_1_then_200_waits_one_second_then_succeeds')).toBe(
      'ok',
    );
    expect(result.outcomes.get('test_retry.RetryAfterAndBackoff.test_503_twice_then_200_backs_off_with_full_jitter')).toBe('ok');
    expect(result.outcomes.get('test_package.Shipped.test_the_installed_copy_is_under_test_when_asked')).toBe('ok');
  }, 120_000);

  for (const name of ['embedded', 'distributed'] as const) {
    it(`live tests pass against the ${name} server`, async () => {
      const target = targets.find((t) => t.name === name)!;
      const result = await runUnittest(venv.python, live, { ...target.env, SHA224D_TEST_TARGET: name });
      liveRuns.push(result);
      console.log(summary(name, result));
      const rss = /python client peak RSS during a 1 GiB \/v2\/stream upload: .*/.exec(result.stdout);
      if (rss) console.log(rss[0]);
      expectAllPassed(result, live);
      // Every operation was called on this target, and (embedded) the 1 GiB upload ran.
      expect(result.outcomes.get('test_live_zz_coverage.Coverage.test_every_operation_was_exercised_against_the_live_service')).toBe('ok');
      if (name === 'embedded') {
        expect(result.outcomes.get('test_live_big_stream.BigStream.test_one_gib_stream_with_peak_rss_under_150_mb')).toBe('ok');
        expect(rss).not.toBeNull();
      }
    }, 600_000);
  }

  it('every live test ran (not skipped) against at least one server', () => {
    expect(liveRuns).toHaveLength(2);
    const ids = new Set(liveRuns.flatMap((r) => [...r.outcomes.keys()]));
    const neverRan = [...ids].filter((id) => liveRuns.every((r) => r.outcomes.get(id) !== 'ok'));
    expect(neverRan).toEqual([]);
    expect(ids.size).toBe(countTestMethods(live));
  });

  it('the SDK error catalog is the service catalog (codes and statuses)', async () => {
    const script = 'import json; from sha224d.errors import ERROR_STATUSES; print(json.dumps(ERROR_STATUSES))';
    const { stdout } = await promisify(execFile)(venv.python, ['-c', script]);
    const service = Object.fromEntries(ERROR_CODES.map((code) => [code, ERROR_CATALOG[code].status]));
    expect(JSON.parse(stdout)).toEqual(service);
  });

  const python39 = findPython39();
  it.skipIf(!python39)(
    'offline tests also pass on Python 3.9 (the oldest supported), from the source tree',
    async () => {
      const result = await runUnittest(python39!, offline, {});
      console.log(summary('offline, Python 3.9', result));
      const failed = [...result.outcomes].filter(([, o]) => o !== 'ok' && o !== 'skipped');
      expect(failed, result.stderr).toEqual([]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.ran).toBe(countTestMethods(offline));
    },
    120_000,
  );
});
