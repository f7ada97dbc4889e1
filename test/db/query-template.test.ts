import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Transaction } from 'kysely';
import type { Deps } from '../../src/app/deps.js';
import { createDeps } from '../../src/root/create-deps.js';
import type { Database } from '../../src/db/database.js';
import { columnsShape, insertTemplate, queryTemplate } from '../../src/db/query-template.js';
import { freshDbFile } from '../support/db.js';
import { sqliteOf } from '../support/sqlite.js';
import { sqliteOnly } from '../support/engine.js';

describe(
  'query templates',
  sqliteOnly(
    "the SQLite connection's direct synchronous runners (templates on PostgreSQL: test/db/postgres-engine.test.ts)",
  ),
  () => {
    let deps: Deps;
    const prepared: string[] = [];
    before(() => {
      // One connection, so that every statement is prepared where this test counts them.
      deps = createDeps({ dbFile: freshDbFile(), separateReads: false });
      const sqlite = sqliteOf(deps);
      const prepare = sqlite.prepare.bind(sqlite);
      sqlite.prepare = ((source: string) => {
        prepared.push(source);
        return prepare(source);
      }) as typeof sqlite.prepare;
    });
    after(() => deps.close());

    const insertProduct = queryTemplate<
      Record<string, unknown>,
      { id: string; name: string | null; price: number | null }
    >((db, param, columns) =>
      db
        .insertInto('products')
        .values(Object.fromEntries(columns.split(',').map((column) => [column, param(column)])) as never)
        .returning(['id', 'name', 'price']),
    );
    const priced = queryTemplate<{ min: number; max: number }, { id: string }>((db, param) =>
      db
        .selectFrom('products')
        .select('id')
        .where('price', '>=', param('min'))
        .where('price', '<=', param('max'))
        .where('name', 'is not', null)
        .orderBy('id'),
    );

    it("binds each call's values into one statement per shape, and keeps the builder's constants", async () => {
      const rows = [
        { id: 'prod_t1', name: 'One', price: 100, created_at: '2024-01-01T00:00:00.000Z' },
        { id: 'prod_t2', name: 'Two', price: 250, created_at: '2024-01-01T00:00:00.000Z' },
        { id: 'prod_t3', name: undefined, price: 300, created_at: '2024-01-01T00:00:00.000Z' },
      ];
      const inserted = [];
      for (const row of rows) inserted.push(...(await insertProduct(deps.db, row, columnsShape(row))));
      assert.deepEqual(inserted, [
        { id: 'prod_t1', name: 'One', price: 100 },
        { id: 'prod_t2', name: 'Two', price: 250 },
        { id: 'prod_t3', name: null, price: 300 },
      ]);
      assert.deepEqual(await priced(deps.db, { min: 100, max: 260 }), [{ id: 'prod_t1' }, { id: 'prod_t2' }]);
      assert.deepEqual(
        await priced(deps.db, { min: 200, max: 400 }),
        [{ id: 'prod_t2' }],
        'the constant `name is not null` still holds',
      );
      const inserts = prepared.filter((sql) => sql.startsWith('insert into "products"'));
      assert.equal(inserts.length, 2, 'one statement for each set of columns');
      assert.equal(prepared.filter((sql) => sql.startsWith('select "id" from "products"')).length, 1);
    });

    it("runs inside the caller's transaction", async () => {
      await assert.rejects(
        deps.db.transaction().execute(async (trx) => {
          await insertProduct(trx, { id: 'prod_rolled_back', created_at: '2024-01-01T00:00:00.000Z' }, 'id,created_at');
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.deepEqual(await priced(deps.db, { min: 0, max: 1000 }), [{ id: 'prod_t1' }, { id: 'prod_t2' }]);
      assert.equal(
        (await deps.db.selectFrom('products').select('id').where('id', '=', 'prod_rolled_back').execute()).length,
        0,
      );
    });

    it("runs a transaction's statements straight on the writer while it is open, and refuses a finished one", async () => {
      let finished: Transaction<Database> | undefined;
      await deps.db.transaction().execute(async (trx) => {
        const pending = insertProduct(
          trx,
          { id: 'prod_direct', created_at: '2024-01-01T00:00:00.000Z' },
          'id,created_at',
        );
        // Without Kysely's executor (its connection provider awaits first), the row is there before any await.
        assert.deepEqual(sqliteOf(deps).prepare("select id from products where id = 'prod_direct'").all(), [
          { id: 'prod_direct' },
        ]);
        assert.deepEqual(await pending, [{ id: 'prod_direct', name: null, price: null }]);
        finished = trx;
      });
      assert.ok(finished);
      await assert.rejects(priced(finished, { min: 0, max: 1000 }), /Transaction is already committed/);
      await assert.rejects(
        insertProduct(finished, { id: 'prod_late', created_at: '2024-01-01T00:00:00.000Z' }, 'id,created_at'),
        /Transaction is already committed/,
      );
      assert.equal(
        (await deps.db.selectFrom('products').select('id').where('id', 'in', ['prod_direct', 'prod_late']).execute())
          .length,
        1,
      );
    });

    it('inserts many rows in one statement per column list and row count, binding a column a row leaves out as NULL', async () => {
      const insertProducts = insertTemplate('products');
      const at = '2024-01-02T00:00:00.000Z';
      const before = deps.engine.stats().queries;
      await insertProducts(deps.db, [
        { id: 'prod_m1', name: 'M1', price: 10, created_at: at },
        { id: 'prod_m2', price: 20, created_at: at, name: undefined },
      ]);
      await insertProducts(deps.db, [
        { id: 'prod_m3', name: 'M3', price: 30, created_at: at },
        { id: 'prod_m4', name: 'M4', price: 40, created_at: at },
      ]);
      await insertProducts(deps.db, [{ id: 'prod_m5', name: 'M5', price: 50, created_at: at }]);
      await insertProducts(deps.db, []);
      const after = deps.engine.stats().queries;
      assert.deepEqual(
        { statements: after.statements - before.statements, compiles: after.compiles - before.compiles },
        { statements: 3, compiles: 2 },
      );
      const rows = await deps.db
        .selectFrom('products')
        .select(['id', 'name', 'price'])
        .where('id', 'like', 'prod_m%')
        .orderBy('id')
        .execute();
      assert.deepEqual(rows, [
        { id: 'prod_m1', name: 'M1', price: 10 },
        { id: 'prod_m2', name: null, price: 20 },
        { id: 'prod_m3', name: 'M3', price: 30 },
        { id: 'prod_m4', name: 'M4', price: 40 },
        { id: 'prod_m5', name: 'M5', price: 50 },
      ]);
      const inserts = prepared.filter(
        (sql) =>
          sql.startsWith('insert into "products" ("id", "name", "price", "created_at")') && !sql.includes('returning'),
      );
      assert.deepEqual(
        inserts.map((sql) => sql.split('(?, ?, ?, ?)').length - 1),
        [2, 1],
        'one statement for 2 rows, one for 1 row',
      );
    });

    it('refuses a builder that writes a value into the SQL text instead of binding it', async () => {
      const inlined = queryTemplate<{ amount: number }, { n: number }>((db, param) =>
        db.selectFrom('products').select((eb) =>
          eb
            .case()
            .when('price', '>', 0)
            .then(Number(param('amount')))
            .else(0)
            .end()
            .as('n'),
        ),
      );
      await assert.rejects(inlined(deps.db, { amount: 5 }), /query template: amount not bound as parameters/);
    });
  },
);
