import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fingerprintWatch } from '../support/db.js';
import { freshDatabase } from '../support/engine.js';
import { openRows } from '../support/sqlite.js';

/**
 * The refusal checks of the mutation sweep (api/robustness-mutations.test.ts) rest on the
 * watch: it must move on every committed change and stay on anything else, on either engine
 * (PostgreSQL: the snapshot, then the tables' versions, then the hashes of those that moved).
 */
describe('fingerprintWatch', () => {
  it('moves on every committed change, and only then', async () => {
    const rows = openRows(await freshDatabase());
    const watch = fingerprintWatch(rows);
    const run = (text: string) => rows.prepare(text).run();
    const first = watch();
    assert.equal(watch(), first, 'nothing happened');
    run("INSERT INTO products (id, name, created_at) VALUES ('prod_w', 'A', '2026-01-01T00:00:00.000Z')");
    const inserted = watch();
    assert.notEqual(inserted, first, 'an insert');
    run("UPDATE products SET name = 'A' WHERE id = 'prod_w'");
    assert.equal(watch(), inserted, 'a row rewritten as it was');
    run("UPDATE products SET name = 'B' WHERE id = 'prod_w'");
    const updated = watch();
    assert.notEqual(updated, inserted, 'an update');
    assert.throws(() =>
      rows.transaction(() => {
        run("INSERT INTO products (id, name, created_at) VALUES ('prod_x', 'X', '2026-01-01T00:00:00.000Z')");
        throw new Error('rolled back');
      })(),
    );
    assert.equal(watch(), updated, 'a rolled-back insert');
    run("DELETE FROM products WHERE id = 'prod_w'");
    assert.equal(watch(), first, 'a delete: the rows are the first ones again');
    rows.close();
  });
});
