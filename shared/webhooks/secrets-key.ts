/**
 * Where SECRETS_KEY comes from. Set: used as given (with SECRETS_KEY_PREVIOUS for a rotation).
 * Unset in embedded mode: a random key is written once to DATA_DIR/secrets.key (mode 0600) and
 * read back on every start, so a newcomer needs no setting and a restart keeps every secret
 * readable. Unset in distributed mode: undefined (webhooks off), because a key generated on one
 * node would not open what another node sealed.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { parseSecretsKey, SecretBox } from './secrets.js';

export const SECRETS_KEY_FILE = 'secrets.key';

export async function openSecretBox(
  config: Pick<Config, 'SECRETS_KEY' | 'SECRETS_KEY_PREVIOUS' | 'mode' | 'dataDir'>,
): Promise<SecretBox | undefined> {
  const previous = config.SECRETS_KEY_PREVIOUS === undefined ? undefined : parseSecretsKey(config.SECRETS_KEY_PREVIOUS);
  if (config.SECRETS_KEY !== undefined) return new SecretBox(parseSecretsKey(config.SECRETS_KEY), previous);
  if (config.mode !== 'embedded') return undefined;
  const file = path.join(config.dataDir, SECRETS_KEY_FILE);
  await mkdir(config.dataDir, { recursive: true });
  // Written whole under a name of its own, then linked into place: link() fails if the file
  // exists, so of two processes starting together one key wins, and no reader sees a half-written file.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    await link(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
  return new SecretBox(parseSecretsKey(await readFile(file, 'utf8')), previous);
}
