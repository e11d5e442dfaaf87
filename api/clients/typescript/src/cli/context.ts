/** What every command is given: the global flags, the client, output streams and exit codes. */
import { Sha224dClient } from '../node.js';
import type { Settings } from './config.js';

/** Exit codes (README "CLI"): 0 ok, 1 mismatch, 2 usage, 3 service error. */
export const EXIT = { ok: 0, mismatch: 1, usage: 2, service: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake in how the CLI was called (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface GlobalFlags {
  key?: string;
  baseUrl?: string;
  json?: boolean;
  local?: boolean;
}

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
}

export class CliContext {
  private cached: Sha224dClient | undefined;

  constructor(
    readonly flags: GlobalFlags,
    readonly settings: Settings,
    readonly io: Io,
  ) {}

  get json(): boolean {
    return this.flags.json === true;
  }

  get local(): boolean {
    return this.flags.local === true;
  }

  /** The SDK client; a missing key is a usage error (exit 2). */
  client(): Sha224dClient {
    if (this.cached) return this.cached;
    const apiKey = this.settings.apiKey;
    if (apiKey === undefined) {
      throw new UsageError('no API key: pass --key, set SHA224D_API_KEY, or run `sha224d config set-key <key>` (or use --local)');
    }
    this.cached = new Sha224dClient({ apiKey, baseUrl: this.settings.baseUrl });
    return this.cached;
  }

  out(line: string): void {
    this.io.stdout.write(`${line}\n`);
  }

  err(line: string): void {
    this.io.stderr.write(`sha224d: ${line}\n`);
  }

  printJson(value: unknown): void {
    this.out(JSON.stringify(value));
  }

  close(): void {
    this.cached?.close();
  }
}
