import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiErrorOf, databaseErrorKind, isConstraintError } from '../../src/db/errors.js';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { freshDbFile } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

/** The error `fn` throws. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('expected a throw');
}

describe(
  'database errors, translated once',
  sqliteOnly("SQLite's error codes (PostgreSQL's SQLSTATEs: test/db/postgres-engine.test.ts)"),
  () => {
    it("reads SQLite's errors as unique, foreign key, check and busy", () => {
      const file = freshDbFile();
      const sqlite = openSqlite(file);
      sqlite.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT UNIQUE, n INTEGER CHECK (n > 0))');
      sqlite.exec('CREATE TABLE child (parent_id INTEGER NOT NULL REFERENCES parent (id))');
      sqlite.exec("INSERT INTO parent VALUES (1, 'a', 1)");
      assert.equal(databaseErrorKind(thrown(() => sqlite.exec("INSERT INTO parent VALUES (1, 'b', 1)"))), 'unique');
      assert.equal(databaseErrorKind(thrown(() => sqlite.exec("INSERT INTO parent VALUES (2, 'a', 1)"))), 'unique');
      assert.equal(databaseErrorKind(thrown(() => sqlite.exec('INSERT INTO child VALUES (9)'))), 'foreign_key');
      assert.equal(databaseErrorKind(thrown(() => sqlite.exec("INSERT INTO parent VALUES (3, 'c', 0)"))), 'check');
      assert.equal(isConstraintError(thrown(() => sqlite.exec('INSERT INTO child VALUES (NULL)'))), true);
      const other = openSqlite(file);
      other.pragma('busy_timeout = 0');
      sqlite.exec('BEGIN IMMEDIATE');
      const busy = thrown(() => other.exec('BEGIN IMMEDIATE'));
      sqlite.exec('ROLLBACK');
      assert.equal(databaseErrorKind(busy), 'busy');
      assert.deepEqual([apiErrorOf(busy)?.key, apiErrorOf(busy)?.status], ['database_busy', 503]);
      other.close();
      sqlite.close();
    });

    it('leaves every other error alone', () => {
      assert.equal(databaseErrorKind(new Error('disk on fire')), undefined);
      assert.equal(databaseErrorKind(null), undefined);
      assert.equal(apiErrorOf(Object.assign(new Error('x'), { code: 'ENOENT' })), undefined);
    });
  },
);
