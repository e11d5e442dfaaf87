/**
 * Where the CLI finds its API key and the service's address: `--key`, then SHA224D_API_KEY, then
 * the config file; `--base-url`, then SHA224D_URL, then the config file, then
 * http://127.0.0.1:8080. The file is $XDG_CONFIG_HOME/sha224d/config.json (default
 * ~/.config/sha224d/config.json), written with mode 0600 because it holds a secret.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_BASE_URL } from '../client.js';

export interface StoredConfig {
  api_key?: string;
  base_url?: string;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  // XDG Base Directory: a relative $XDG_CONFIG_HOME is invalid and is ignored.
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(env.HOME ?? os.homedir(), '.config');
  return path.join(base, 'sha224d', 'config.json');
}

export function readConfig(file: string = configPath()): StoredConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`${file} must hold a JSON object`);
  const { api_key, base_url } = parsed as Record<string, unknown>;
  return {
    ...(typeof api_key === 'string' ? { api_key } : {}),
    ...(typeof base_url === 'string' ? { base_url } : {}),
  };
}

/** Merges `changes` into the file; the file is created 0600 and its folder 0700. */
export function writeConfig(changes: StoredConfig, file: string = configPath()): StoredConfig {
  const next = { ...readConfig(file), ...changes };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600); // the umask cannot widen it, and an old file's mode does not carry over
  fs.renameSync(temporary, file);
  return next;
}

export interface Settings {
  apiKey: string | undefined;
  baseUrl: string;
}

export function resolveSettings(flags: { key?: string; baseUrl?: string }, env: NodeJS.ProcessEnv = process.env): Settings {
  const stored = readConfig(configPath(env));
  const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);
  return {
    apiKey: nonEmpty(flags.key) ?? nonEmpty(env.SHA224D_API_KEY) ?? nonEmpty(stored.api_key),
    baseUrl: nonEmpty(flags.baseUrl) ?? nonEmpty(env.SHA224D_URL) ?? nonEmpty(stored.base_url) ?? DEFAULT_BASE_URL,
  };
}

/** For display: the key's prefix only. */
export function maskKey(key: string): string {
  return key.length <= 12 ? '****' : `${key.slice(0, 9)}…`;
}
