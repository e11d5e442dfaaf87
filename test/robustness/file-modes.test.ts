/**
 * Data files hold accounts, key hashes and callers' bytes: created readable by the service's user
 * only (directories 0700, files 0600), whatever the umask allows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { openDatabase } from '../../shared/store/database.js';

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('file modes of embedded mode', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-modes-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('SQLite: its directory 0700, the database and its WAL files 0600', async () => {
    const dir = path.join(root, 'data');
    const file = path.join(dir, 'sha224d.sqlite');
    const db = await openDatabase({ sqlitePath: file });
    try {
      await db.schema.createTable('t').addColumn('x', 'integer').execute();
      expect(mode(dir)).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f), f).toBe(0o600);
    } finally {
      await db.destroy();
    }
  });

  it('local blobs: directories 0700, files 0600', async () => {
    const blobs = new LocalDiskBlobStore(path.join(root, 'blobs'));
    await blobs.ping();
    const ref = await blobs.put('uploads/acct/one', Readable.from([Buffer.from('abc')]), { maxBytes: 10 });
    expect(ref).toEqual({ key: 'uploads/acct/one', size: 3 });
    for (const d of ['blobs', 'blobs/uploads', 'blobs/uploads/acct']) expect(mode(path.join(root, d)), d).toBe(0o700);
    expect(mode(path.join(root, 'blobs/uploads/acct/one'))).toBe(0o600);
  });
});
