/**
 * Where an interrupted resumable upload can be found again: one small JSON file per upload under
 * the user's cache folder (XDG_CACHE_HOME, else ~/.cache), named by a digest of the file's absolute
 * path, size and mtime, the service address and the expected digest — a file changed since
 * (new size or mtime) gets a fresh upload instead of bytes appended to the old one. Deleted when
 * the upload is complete.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ResumeState {
  /** The tus upload's URL. */
  url: string;
}

export interface ResumeKey {
  file: string;
  size: number;
  mtimeMs: number;
  baseUrl: string;
  expect: string | undefined;
}

export function stateDir(env: NodeJS.ProcessEnv): string {
  const cache =
    env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : path.join(env.HOME ?? os.homedir(), '.cache');
  return path.join(cache, 'sha224d', 'uploads');
}

export function statePath(env: NodeJS.ProcessEnv, key: ResumeKey): string {
  const id = createHash('sha256')
    .update(JSON.stringify([path.resolve(key.file), key.size, key.mtimeMs, key.baseUrl, key.expect ?? null]))
    .digest('hex')
    .slice(0, 32);
  return path.join(stateDir(env), `${id}.json`);
}

/** The state saved by an earlier run, or undefined (none, or unreadable: then a new upload starts). */
export function readState(file: string): ResumeState | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { url?: unknown }).url === 'string') {
      return { url: (parsed as { url: string }).url };
    }
  } catch {
    // missing or damaged: start afresh
  }
  return undefined;
}

/** Written to a temporary name then renamed, so a kill mid-write leaves the old state or the new, never half. */
export function writeState(file: string, state: ResumeState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
  fs.renameSync(temporary, file);
}

export function removeState(file: string): void {
  fs.rmSync(file, { force: true });
}
