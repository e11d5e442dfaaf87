import { loadConfig, type Config } from '../../shared/config.js';
import { databaseOptionsFromConfig } from '../../shared/store/database.js';
import { createStore } from '../../shared/store/kysely-store.js';
import type { AccountStore } from '../../shared/store/types.js';

/**
 * One admin command's store: opened from loadConfig() (DATABASE_URL, or DATA_DIR/sha224d.sqlite)
 * with pending migrations applied, and closed when the command is done, whatever it ends with.
 */
export async function withStore<T>(fn: (store: AccountStore, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = await createStore(databaseOptionsFromConfig(config));
  try {
    return await fn(store, config);
  } finally {
    await store.close();
  }
}
