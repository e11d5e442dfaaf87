/**
 * A depth-first walk over the regular files under a directory for the local-disk blob store's
 * listings. Directories are read through `opendir`, one entry at a time, so a tree of any size is
 * walked with one open directory and a stack of the subdirectories still to visit, never a full
 * listing in memory.
 */
import { lstat, opendir } from 'node:fs/promises';
import path from 'node:path';

export interface DiskFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk's root, with `/` separators: the blob key when the root is the store's. */
  relative: string;
  mtimeMs: number;
}

/** Every regular file under `root/start` (symbolic links are not followed); nothing if it does not exist. */
export async function* walkFiles(root: string, start: string): AsyncGenerator<DiskFile> {
  const pending = [path.join(root, start)];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const handle = await opendir(dir).catch(ignoreMissing);
    if (handle === undefined) continue;
    for await (const entry of handle) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        pending.push(full);
        continue;
      }
      if (!entry.isFile()) continue;
      // Gone between readdir and stat (deleted by its job, or by another sweeper): skip it.
      const stats = await lstat(full).catch(ignoreMissing);
      if (stats === undefined || !stats.isFile()) continue;
      yield { path: full, relative: path.relative(root, full).split(path.sep).join('/'), mtimeMs: stats.mtimeMs };
    }
  }
}

function ignoreMissing(err: unknown): undefined {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
  throw err;
}
