/**
 * Catalog at scale: 100,000 products with 3 SKUs each (400,000 rows).
 *
 * Measures, through the real `promo serve` (one request at a time), p50/p99 of
 *   - GET /v1/products/{id}/skus at its last page (page 1: three SKUs), for random products;
 *   - GET /v1/product-collections/{id}/products?limit=100&page=<last> for an AUTO_UPDATE
 *     collection with `price $less_than` and `metadata.color $is`, evaluated live in SQL;
 * next to GET /v1/skus/{random id}, a primary-key lookup through the same stack, measured
 * before and after the others in the same run (the lower p99 is the baseline). Target: each
 * p99 within 10x of the lookup's p99.
 *
 * Prices are spread uniformly over 1.00..1000.00 and colours over eight values, so the
 * collection (price < BENCH_PRICE_LIMIT, default 20.00, and colour red) holds about 1 in 400
 * rows: its filter reads 2% of the catalog through the price index.
 *
 * The seeded database is kept under the OS temp dir, keyed by SEED_VERSION and the hash of
 * sql/0002_catalog.sql, so reruns skip seeding ($TMPDIR/promo-bench-catalog-*.db). Seeding
 * uses raw prepared inserts in large transactions with the secondary indexes dropped and
 * rebuilt from sqlite_master afterwards (exactly the migration's definitions).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { cachedSeed } from './support/cached-seed.js';
import { measureLatency, round } from './support/load.js';
import { spawnListening } from './support/spawn.js';

const SEED_VERSION = 'catalog-v1';
/** BENCH_SCALE=100 runs a hundredth of the data: a quick check of the bench itself. */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const PRODUCTS = 100_000 / SCALE;
const SKUS_PER_PRODUCT = 3;
const BATCH = 20_000;
/** Prices are uniform over 1.00 .. 1000.00; the collection takes those under PRICE_LIMIT. */
const PRICE_SPAN = 100_000;
const PRICE_LIMIT = Number(process.env.BENCH_PRICE_LIMIT ?? 2_000);
const COLORS = ['red', 'green', 'blue', 'black', 'white', 'yellow', 'pink', 'grey'];

const migrationFile = fileURLToPath(new URL('../../sql/0002_catalog.sql', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/promo', import.meta.url));
const key = createHash('sha256')
  .update(`${SEED_VERSION}/${SCALE}`)
  .update(readFileSync(migrationFile))
  .digest('hex')
  .slice(0, 12);
const dbFile = join(tmpdir(), `promo-bench-catalog-${key}.db`);

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Ids that sort in insertion order (cheap unique-index inserts) yet look like ours. */
function sortableId(prefix: string, n: number): string {
  let s = '';
  for (let v = n; s.length < 6; v = Math.floor(v / 62)) s = BASE62[v % 62] + s;
  return `${prefix}${s}${randomBytes(10).toString('base64url').replace(/[-_]/g, 'x').slice(0, 10)}`;
}

const T_BASE = Date.UTC(2022, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
/** A deterministic spread of prices and colours (a multiplicative hash of the row number). */
const priceOf = (n: number) => 100 + ((n * 2_654_435_761) % PRICE_SPAN);
const colorOf = (n: number) => COLORS[(n * 40_503) % COLORS.length] as string;

function seedRows(sqlite: BetterSqlite3.Database): void {
  const product =
    sqlite.prepare(`INSERT INTO products (id, source_id, name, price, attributes, metadata, image_url, created_at, updated_at)
    VALUES (?, ?, ?, ?, '["size"]', ?, NULL, ?, NULL)`);
  const sku =
    sqlite.prepare(`INSERT INTO skus (id, product_id, source_id, sku, price, currency, attributes, image_url, metadata, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, 'EUR', ?, NULL, ?, ?, NULL)`);
  for (let start = 0; start < PRODUCTS; start += BATCH) {
    sqlite.transaction(() => {
      for (let i = start; i < Math.min(start + BATCH, PRODUCTS); i++) {
        const id = sortableId('prod_', i);
        const at = T_BASE + i * 60_000;
        const meta = JSON.stringify({
          color: colorOf(i),
          vendor: `vendor-${i % 97}`,
          tags: ['catalog', `batch-${i % 10}`],
        });
        product.run(id, `src-${i}`, `Product ${i}`, priceOf(i), meta, iso(at));
        for (let k = 0; k < SKUS_PER_PRODUCT; k++) {
          const n = PRODUCTS + i * SKUS_PER_PRODUCT + k;
          const skuMeta = JSON.stringify({ color: colorOf(n), weight: k + 1 });
          sku.run(
            sortableId('sku_', n),
            id,
            `src-${i}-${k}`,
            `Product ${i} / ${k}`,
            priceOf(n),
            JSON.stringify({ size: ['S', 'M', 'L'][k] }),
            skuMeta,
            iso(at + (k + 1) * 1000),
          );
        }
      }
    })();
  }
}

function samples(): { products: string[]; skus: string[] } {
  const sqlite = openSqlite(dbFile);
  try {
    const pick = (table: string) =>
      (sqlite.prepare(`SELECT id FROM ${table} ORDER BY random() LIMIT 500`).all() as Array<{ id: string }>).map(
        (r) => r.id,
      );
    return { products: pick('products'), skus: pick('skus') };
  } finally {
    sqlite.close();
  }
}

const seeded = cachedSeed(dbFile, ['products', 'skus'], seedRows);
const { products, skus } = samples();
const headers = { 'X-App-Id': 'bench', 'X-App-Token': 'bench-token', 'Content-Type': 'application/json' };
const server = await spawnListening([bin, 'serve', '--port', '0', '--db', dbFile], {
  ...process.env,
  PROMO_APP_ID: 'bench',
  PROMO_APP_TOKEN: 'bench-token',
});
try {
  const filter = {
    junction: 'and',
    price: { conditions: { $less_than: [PRICE_LIMIT] } },
    'metadata.color': { conditions: { $is: ['red'] } },
  };
  const created = await fetch(`${server.url}/v1/product-collections`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'AUTO_UPDATE', name: `bench ${Date.now()}`, filter }),
  });
  const collection = (await created.json()) as { id: string };
  const first = (await (
    await fetch(`${server.url}/v1/product-collections/${collection.id}/products?limit=100`, { headers })
  ).json()) as {
    total: number;
  };
  const lastPage = Math.min(100, Math.max(1, Math.ceil(first.total / 100)));

  const measure = (paths: string[]) => measureLatency(server.url, paths, { count: 400, warmup: 40, headers });
  const lookup = await measure(skus.map((id) => `/v1/skus/${id}`));
  const skuList = await measure(products.map((id) => `/v1/products/${id}/skus?limit=100&page=1`));
  const members = await measure([`/v1/product-collections/${collection.id}/products?limit=100&page=${lastPage}`]);
  const lookupAgain = await measure(skus.map((id) => `/v1/skus/${id}`));
  await fetch(`${server.url}/v1/product-collections/${collection.id}`, { method: 'DELETE', headers });

  const baseline = Math.min(lookup.p99_ms, lookupAgain.p99_ms);
  const ratio = (p99: number) => round(p99 / baseline, 2);
  console.log(
    JSON.stringify({
      bench: 'catalog',
      products: PRODUCTS,
      skus: PRODUCTS * SKUS_PER_PRODUCT,
      seeded_now: !seeded.reused,
      seed_seconds: seeded.seconds,
      collection_members: first.total,
      collection_last_page: lastPage,
      price_limit: PRICE_LIMIT,
      lookup_p50_ms: Math.min(lookup.p50_ms, lookupAgain.p50_ms),
      lookup_p99_ms: baseline,
      skus_p50_ms: skuList.p50_ms,
      skus_p99_ms: skuList.p99_ms,
      skus_ratio: ratio(skuList.p99_ms),
      collection_p50_ms: members.p50_ms,
      collection_p99_ms: members.p99_ms,
      collection_ratio: ratio(members.p99_ms),
      max_ratio: Math.max(ratio(skuList.p99_ms), ratio(members.p99_ms)),
      ratio_target: 10,
    }),
  );
} finally {
  await server.stop();
}
