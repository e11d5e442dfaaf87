import { describe, expect, it } from 'vitest';
import { isSqliteBusy, openSqliteConnection } from '../../shared/store/sqlite-driver.js';

describe('SQLite driver', () => {
  it('is node:sqlite from Node 24 on and better-sqlite3 before', () => {
    const connection = openSqliteConnection(':memory:');
    try {
      const major = Number(process.versions.node.split('.')[0]);
      expect(connection.driver).toBe(major >= 24 ? 'node:sqlite' : 'better-sqlite3');
    } finally {
      connection.close();
    }
  });

  it('runs statements with and without rows through the interface Kysely uses', () => {
    const connection = openSqliteConnection(':memory:');
    try {
      connection.exec('create table t (id integer primary key, name text not null, bytes blob)');
      const insert = connection.prepare('insert into t (name, bytes) values (?, ?)');
      expect(insert.reader).toBe(false);
      expect(insert.run(['a', Buffer.from([1, 2, 3])])).toMatchObject({ changes: 1, lastInsertRowid: 1 });
      const returning = connection.prepare('insert into t (name) values (?) returning id');
      expect(returning.reader).toBe(true);
      expect(returning.all(['b'])).toEqual([{ id: 2 }]);
      const select = connection.prepare('select id, name from t where id >= ? order by id');
      expect(select.reader).toBe(true);
      expect(select.all([1]).map((row) => ({ ...(row as object) }))).toEqual([
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
      ]);
      expect([...select.iterate([2])].map((row) => ({ ...(row as object) }))).toEqual([{ id: 2, name: 'b' }]);
    } finally {
      connection.close();
    }
  });

  it('recognises "database is locked" from either driver', () => {
    expect(isSqliteBusy(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(true);
    expect(isSqliteBusy(Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 }))).toBe(true);
    expect(isSqliteBusy(Object.assign(new Error('constraint'), { code: 'ERR_SQLITE_ERROR', errcode: 19 }))).toBe(false);
    expect(isSqliteBusy(new Error('other'))).toBe(false);
  });
});
