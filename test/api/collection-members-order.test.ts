import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { loadMigrations, migrate } from '../../src/db/sqlite/migrate.js';
import { fixedClock } from '../../src/lib/clock.js';
import { ORDER_FIELDS } from '../../src/modules/catalog/catalog.schemas.js';
import { tempDir } from '../support/db.js';
import { startTestServer, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-06-01T00:00:00.000Z');
const MINUTE = 60_000;

/**
 * A STATIC collection's page walks its items on the member sort keys they carry (sql/0005),
 * while an AUTO_UPDATE collection sorts what its filter matches: two paths, one answer. A
 * STATIC collection of every product and SKU must list exactly as the AUTO_UPDATE collection
 * of every product and SKU, in every order, page and cursor, after products and SKUs change.
 */
describe('STATIC collection members in every order', () => {
  let server: TestServer;
  const post = async (path: string, body: Record<string, unknown>) =>
    (await server.request('POST', path, { body })).body;
  const page = async (id: string, query: string) => {
    const res = await server.request('GET', `/v1/product-collections/${id}/products${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { ids: (res.body.data as Array<{ id: string }>).map((m) => m.id), total: res.body.total as number };
  };

  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('lists as the equivalent AUTO_UPDATE collection, with updates, ties and cursors', async () => {
    const members: Array<{ id: string; object: 'product' | 'sku' }> = [];
    const idOf = new Map<string, string>();
    for (const p of ['a', 'b', 'c', 'd']) {
      // Two products (and their SKUs) share each creation time: ids break the ties.
      if (p === 'a' || p === 'c') clock.advance(MINUTE);
      const product = await post('/v1/products', { source_id: p, name: p, attributes: ['size'] });
      members.push({ id: product.id, object: 'product' });
      idOf.set(p, product.id);
      for (const size of ['S', 'M']) {
        const sku = await post(`/v1/products/${p}/skus`, { source_id: `${p}-${size}`, attributes: { size } });
        members.push({ id: sku.id, object: 'sku' });
        idOf.set(`${p}-${size}`, sku.id);
      }
    }
    const picked = await post('/v1/product-collections', {
      type: 'STATIC',
      name: 'All picked',
      products: members.reverse(),
    });
    const every = await post('/v1/product-collections', {
      type: 'AUTO_UPDATE',
      name: 'All matched',
      filter: { junction: 'or', object: { conditions: { $in: ['product', 'sku'] } } },
    });
    const cut = clock.now().toISOString();
    // Updates after the collection was made: products and SKUs, some twice, some never.
    for (const [path, body] of [
      ['/v1/products/c', { price: 100 }],
      ['/v1/products/a/skus/a-M', { price: 5 }],
      ['/v1/products/d', { price: 7 }],
      ['/v1/products/c', { price: 200 }],
      ['/v1/products/b/skus/b-S', { price: 9 }],
    ] as const) {
      clock.advance(MINUTE);
      assert.equal((await server.request('PUT', path, { body })).status, 200);
    }
    const orders = ['', ...ORDER_FIELDS.flatMap((f) => [`order=${f}`, `order=-${f}`])];
    for (const order of orders) {
      for (const window of [
        'limit=100',
        'limit=5&page=2',
        `starting_after=${cut}&limit=100`,
        'starting_after=2024-06-01T00:01:00.000Z',
      ]) {
        const query = `?${[order, window].filter(Boolean).join('&')}`;
        assert.deepEqual(await page(picked.id, query), await page(every.id, query), query);
      }
    }
    // And the answer itself: the latest updates first, then the rest newest first.
    const byUpdate = await page(picked.id, '?order=-updated_at&limit=4');
    assert.deepEqual(byUpdate, { ids: ['b-S', 'c', 'd', 'a-M'].map((s) => idOf.get(s)), total: 12 });
  });
});

describe('sql/0005 on a database that already holds STATIC collections', () => {
  it('fills each item with its member sort keys', () => {
    const sqlite = openSqlite(join(tempDir(), 'promo.db'));
    const migrations = loadMigrations();
    migrate(
      sqlite,
      migrations.filter((m) => m.version < 5),
    );
    sqlite.exec(`
      INSERT INTO products (id, created_at, updated_at) VALUES ('prod_1', '2024-01-01T00:00:00.000Z', NULL),
        ('prod_2', '2024-01-02T00:00:00.000Z', '2024-02-02T00:00:00.000Z');
      INSERT INTO skus (id, product_id, created_at, updated_at) VALUES ('sku_1', 'prod_2', '2024-01-03T00:00:00.000Z', '2024-02-03T00:00:00.000Z');
      INSERT INTO product_collections (id, name, type, created_at) VALUES ('pc_1', 'old', 'STATIC', '2024-03-01T00:00:00.000Z');
      INSERT INTO product_collection_items (collection_id, position, object, product_id, sku_id) VALUES
        ('pc_1', 0, 'sku', 'prod_2', 'sku_1'), ('pc_1', 1, 'product', 'prod_1', NULL), ('pc_1', 2, 'product', 'prod_2', NULL);`);
    migrate(sqlite, migrations);
    const rows = sqlite
      .prepare('SELECT member_id, member_created_at, member_updated_at FROM product_collection_items ORDER BY position')
      .all();
    sqlite.close();
    assert.deepEqual(rows, [
      {
        member_id: 'sku_1',
        member_created_at: '2024-01-03T00:00:00.000Z',
        member_updated_at: '2024-02-03T00:00:00.000Z',
      },
      { member_id: 'prod_1', member_created_at: '2024-01-01T00:00:00.000Z', member_updated_at: null },
      {
        member_id: 'prod_2',
        member_created_at: '2024-01-02T00:00:00.000Z',
        member_updated_at: '2024-02-02T00:00:00.000Z',
      },
    ]);
  });
});
