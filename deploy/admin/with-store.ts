import fs from 'node:fs';
import { loadConfig, type Config } from '../../shared/config.js';
import { databaseOptionsFromConfig, isPostgresUrl } from '../../shared/store/database.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import type { AccountStore } from '../../shared/store/types.js';
import { UsageError } from './usage-error.js';

/**
 * The store the environment names (DATABASE_URL, or DATA_DIR/sha224d.sqlite), with pending
 * migrations applied. A SQLite file that does not exist is never created here: an admin command run
 * without the server's DATA_DIR would otherwise edit a new, empty store that no server reads
 * (docs/decisions.md "Operating: the admin CLI's queue commands and the queue UI").
 */
export async function openAdminStore(config: Config): Promise<KyselyAccountStore> {
  const options = databaseOptionsFromConfig(config);
  if (!isPostgresUrl(options.databaseUrl) && !fs.existsSync(options.sqlitePath)) {
    throw new UsageError(
      `No store at ${options.sqlitePath} (DATA_DIR=${config.DATA_DIR}); nothing was created. ` +
        'Run the admin CLI with the settings of the server: DATA_DIR=<its data directory> npm run admin -- …, ' +
        'or DATABASE_URL=postgres://… for PostgreSQL. The server creates its store at its first start.',
    );
  }
  return createStore(options);
}

/** One admin command's store (openAdminStore), closed when the command is done, whatever it ends with. */
export async function withStore<T>(fn: (store: AccountStore, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = await openAdminStore(config);
  try {
    return await fn(store, config);
  } finally {
    await store.close();
  }
}
