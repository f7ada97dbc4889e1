import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { kyselyOver } from '../../src/db/postgres/connect.js';
import type { ColumnNullability } from '../../src/db/postgres/null-order.js';

/**
 * The order compiler (src/db/postgres/null-order.ts) on the SQL it writes: SQLite sorts NULL
 * before every value, PostgreSQL after, so every ORDER BY key that may hold NULL says where they
 * go, and a NOT NULL column keeps the plain order its default index serves. Compiled only: the
 * pool never connects (the API list tests run the same on a server, on both engines).
 */
const COLUMNS: ColumnNullability = {
  orders: { seq: true, id: true, created_at: true, updated_at: false, customer_id: false },
  customers: { seq: true, id: true, email: false, updated_at: true },
  segment_members: { segment_id: true, customer_id: true, customer_seq: true, updated_at: true },
};
const db = kyselyOver(new pg.Pool({ max: 1 }), COLUMNS);

describe('ORDER BY on PostgreSQL sorts NULL as SQLite does', () => {
  it('places NULL first ascending and last descending on a nullable column, leaving NOT NULL keys plain', () => {
    const asc = db.selectFrom('orders').selectAll().orderBy('updated_at', 'asc').orderBy('seq', 'asc').compile();
    assert.equal(asc.sql, 'select * from "orders" order by "updated_at" asc nulls first, "seq" asc');
    const desc = db.selectFrom('orders').selectAll().orderBy('updated_at', 'desc').orderBy('seq', 'desc').compile();
    assert.equal(desc.sql, 'select * from "orders" order by "updated_at" desc nulls last, "seq" desc');
    const bare = db.selectFrom('orders').selectAll().orderBy('customer_id').orderBy('created_at').compile();
    assert.equal(bare.sql, 'select * from "orders" order by "customer_id" nulls first, "created_at"');
  });

  it('resolves aliases and qualified columns through the FROM and JOIN items', () => {
    const joined = db
      .selectFrom('segment_members as m')
      .innerJoin('customers as c', 'c.id', 'm.customer_id')
      .selectAll('c')
      .orderBy('m.updated_at', 'desc')
      .orderBy('c.email', 'desc')
      .orderBy('m.customer_seq', 'desc')
      .compile();
    assert.equal(
      joined.sql,
      'select "c".* from "segment_members" as "m" inner join "customers" as "c" on "c"."id" = "m"."customer_id" order by "m"."updated_at" desc, "c"."email" desc nulls last, "m"."customer_seq" desc',
    );
    const ref = db.selectFrom('orders as o').selectAll().orderBy(sql.ref('o.updated_at')).compile();
    assert.equal(ref.sql, 'select * from "orders" as "o" order by "o"."updated_at" nulls first');
  });

  it("reads a subquery's columns from its select list, renamed or not", () => {
    const window = db.selectFrom('orders').select(['seq', 'updated_at', 'id as key']).orderBy('seq').limit(10).as('w');
    const outer = db
      .selectFrom(window)
      .selectAll()
      .orderBy('updated_at', 'desc')
      .orderBy('key', 'desc')
      .orderBy('w.seq', 'desc')
      .compile();
    assert.equal(
      outer.sql,
      'select * from (select "seq", "updated_at", "id" as "key" from "orders" order by "seq" limit $1) as "w" order by "updated_at" desc nulls last, "key" desc, "w"."seq" desc',
    );
  });

  it('places NULL wherever it cannot tell: a UNION, a subquery of *, an expression, an output name, an unknown table', () => {
    const union = db.selectFrom('orders').select('seq').unionAll(db.selectFrom('customers').select('seq')).as('u');
    assert.equal(
      db.selectFrom(union).selectAll().orderBy('seq').compile().sql,
      'select * from (select "seq" from "orders" union all select "seq" from "customers") as "u" order by "seq" nulls first',
    );
    const everything = db.selectFrom('orders').selectAll().as('a');
    assert.equal(
      db.selectFrom(everything).selectAll().orderBy('seq').compile().sql,
      'select * from (select * from "orders") as "a" order by "seq" nulls first',
    );
    const expression = db.selectFrom('orders').selectAll().orderBy(sql`lower(id)`).compile();
    assert.equal(expression.sql, 'select * from "orders" order by lower(id) nulls first');
    const renamed = db.selectFrom('orders').select('updated_at as seq').orderBy('seq').compile();
    assert.equal(renamed.sql, 'select "updated_at" as "seq" from "orders" order by "seq" nulls first');
    const unknown = db.selectFrom('categories').selectAll().orderBy('seq').compile();
    assert.equal(unknown.sql, 'select * from "categories" order by "seq" nulls first');
  });

  it('reaches an ORDER BY nested in a write', () => {
    const claim = db
      .updateTable('orders')
      .set({ status: 'PAID' })
      .where('id', 'in', (eb) => eb.selectFrom('orders').select('id').orderBy('updated_at').limit(5))
      .compile();
    assert.equal(
      claim.sql,
      'update "orders" set "status" = $1 where "id" in (select "id" from "orders" order by "updated_at" nulls first limit $2)',
    );
  });

  it('keeps an order that already says where NULL goes', () => {
    const said = db
      .selectFrom('orders')
      .selectAll()
      .orderBy('updated_at', (ob) => ob.desc().nullsFirst())
      .compile();
    assert.equal(said.sql, 'select * from "orders" order by "updated_at" desc nulls first');
  });
});
