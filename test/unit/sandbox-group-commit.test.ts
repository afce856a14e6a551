import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../src/sandbox/db.ts';
import { createGroupCommit } from '../../src/sandbox/group-commit.ts';

function database() {
  const db = openDatabase(':memory:');
  db.exec('CREATE TABLE rows (value TEXT NOT NULL)');
  return db;
}

test('writes asked for in one turn commit together, and each promise settles after the commit', async () => {
  const db = database();
  const commitSoon = createGroupCommit(db);
  const insert = db.prepare('INSERT INTO rows (value) VALUES (?)');
  const settledOutsideTransaction: boolean[] = [];
  const writes = ['a', 'b', 'c'].map((value) =>
    commitSoon(() => Number(insert.run(value).lastInsertRowid)).then((id) => {
      settledOutsideTransaction.push(!db.inTransaction);
      return id;
    }),
  );
  assert.equal(db.prepare('SELECT count(*) AS count FROM rows').get().count, 0, 'nothing is written before the turn ends');
  assert.deepEqual(await Promise.all(writes), [1, 2, 3]);
  assert.deepEqual(settledOutsideTransaction, [true, true, true]);
  db.close();
});

test('a failing write undoes only itself', async () => {
  const db = database();
  const commitSoon = createGroupCommit(db);
  const insert = db.prepare('INSERT INTO rows (value) VALUES (?)');
  const [first, failed, last] = await Promise.allSettled([
    commitSoon(() => insert.run('kept')),
    commitSoon(() => {
      insert.run('undone');
      throw new Error('refused');
    }),
    commitSoon(() => insert.run('kept too')),
  ]);
  assert.equal(first.status, 'fulfilled');
  assert.equal(failed.status, 'rejected');
  assert.equal((failed as PromiseRejectedResult).reason.message, 'refused');
  assert.equal(last.status, 'fulfilled');
  assert.deepEqual(
    db
      .prepare('SELECT value FROM rows ORDER BY rowid')
      .all()
      .map((row) => row.value),
    ['kept', 'kept too'],
  );
  db.close();
});
