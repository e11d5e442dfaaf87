/**
 * Runs a documented example that starts the service itself (a README walkthrough, a topology
 * example) as one `bash` script in its own process group, from the repository root, with the
 * caller's TMPDIR and none of the service's settings inherited from the test's environment: the
 * script sets what it needs, as a reader's shell would. The whole group is killed when the script
 * ends or after `timeoutMs`, so nothing it started outlives it.
 */
import { spawn } from 'node:child_process';
import { ROOT } from '../../helpers/spawn.js';

const SERVICE_SETTINGS = ['DATA_DIR', 'DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX', 'S3_ENDPOINT', 'S3_BUCKET', 'PORT', 'METRICS_PORT'];

/** The script's exit code and its stdout and stderr, interleaved as they came. */
export async function runServiceScript(
  script: string,
  options: { tmp: string; timeoutMs: number; env?: Record<string, string> },
): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: options.tmp, ...options.env };
  for (const name of SERVICE_SETTINGS) delete env[name];
  const child = spawn('bash', ['-c', `set -e -o pipefail\n${script}`], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), options.timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // The group has ended: nothing the script started is left running.
  }
  return { code, out };
}
