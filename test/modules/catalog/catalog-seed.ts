import type { Deps } from '../../../src/app/deps.js';
import { openDeps } from '../../../src/root/create-deps.js';
import { fixedClock } from '../../../src/lib/clock.js';
import type { CatalogItem } from '../../../src/modules/catalog/collections/collection-fields.rules.js';
import type { ProductRow } from '../../../src/modules/catalog/products/products.repository.js';
import { createProduct, updateProduct } from '../../../src/modules/catalog/products/products.service.js';
import type { SkuRow } from '../../../src/modules/catalog/skus/skus.repository.js';
import { createSku, updateSku } from '../../../src/modules/catalog/skus/skus.service.js';
import { freshDbFile } from '../../support/db.js';

/** The moment the side-by-side tests evaluate at; the catalog is made over the two weeks before. */
export const NOW = new Date('2024-06-15T12:00:00.000Z');

type Sku = Record<string, unknown>;
const PRODUCTS: Array<[Record<string, unknown>, Sku[]]> = [
  [
    {
      source_id: 'tee-red',
      name: 'Red Tee',
      price: 1500,
      attributes: ['color', 'size'],
      image_url: 'https://img.test/red.png',
      metadata: { color: 'red', size: 3, tags: ['summer', 'sale'], flag: true, when: '2024-06-14', obj: { a: 1 } },
    },
    [
      {
        source_id: 'tee-red-s',
        sku: 'Red Tee S',
        price: 1500,
        attributes: { color: 'red', size: 'S' },
        metadata: { size: 1 },
      },
      {
        sku: 'Red Tee M',
        price: 1600,
        attributes: { size: 'M' },
        metadata: { color: 'red', when: '2024-06-15T11:00:00Z' },
      },
    ],
  ],
  [
    {
      name: 'Blue Tee',
      price: 2500,
      attributes: ['color'],
      metadata: { color: 'blue', size: 4.5, tags: [], flag: false, when: '2024-06-10T10:00:00+02:00', empty: '' },
    },
    [{ sku: 'Blue Tee L', price: null, attributes: {}, metadata: {} }],
  ],
  [{ source_id: 'mug', metadata: { color: ['red', 'white'], tags: ['kitchen'], when: 'not a date', size: '3' } }, []],
  [
    {
      source_id: 'café',
      name: 'Café au lait',
      price: 0,
      attributes: ['roast'],
      metadata: { color: 'RED', when: '2024-06-20T00:00:00.000Z', tags: ['summer', 5, null], empty: [] },
    },
    [{ sku: 'Café 250g', price: 450, currency: 'EUR', attributes: { roast: 'dark' }, metadata: { tags: ['beans'] } }],
  ],
  [
    {
      source_id: 'cap',
      name: 'Cap',
      price: 999,
      image_url: 'https://img.test/cap.jpg',
      metadata: { color: null, when: ['2024-06-01', '2024-07-01'], obj: [{ color: 'red' }] },
    },
    [],
  ],
  [{ name: 'Gift card', price: 10000, metadata: { size: 10, flag: 'true', when: 20240601, d: '2024-02-31' } }, []],
  [
    {
      name: 'Sock',
      price: 300,
      attributes: ['size', 'color'],
      metadata: { color: 'blue', tags: ['sale'], d: '2024-06-12T24:00:00' },
    },
    [
      {
        source_id: 'sock-42',
        sku: 'Sock pair',
        price: 300,
        attributes: { size: 42, color: 'black' },
        metadata: { color: 'black', flag: true },
      },
      {
        sku: 'Sock trio',
        price: 800,
        attributes: { size: 43 },
        metadata: { when: '2024-06-13T08:00:00.250-03:00', d: '2024-06-1' },
      },
    ],
  ],
  [
    {
      name: 'Scarf',
      price: 1999,
      attributes: ['color'],
      metadata: { tags: ['winter', 'sale'], size: -2, d: '2024-13-01' },
    },
    [],
  ],
];

export interface Seeded {
  deps: Deps;
  items: CatalogItem[];
  close(): Promise<void>;
}

/**
 * A fresh database with the catalog above, made by the services with a clock that steps 7
 * hours a write: a new SQLite file, or the (migrated, empty) PostgreSQL database at `location`.
 */
export async function seedCatalog(location = freshDbFile()): Promise<Seeded> {
  const clock = fixedClock('2024-06-01T03:00:00.000Z');
  const deps = await openDeps({ dbFile: location, clock });
  const step = () => clock.advance(7 * 3_600_000 + 1234);
  for (const [product, skus] of PRODUCTS) {
    step();
    const created = await createProduct(deps, product);
    for (const sku of skus) {
      step();
      await createSku(deps, created.id, sku);
    }
  }
  step();
  await updateProduct(deps, 'tee-red', { price: 1400 });
  step();
  await updateSku(deps, 'tee-red', 'tee-red-s', { price: 1450 });
  return { deps, items: await loadItems(deps), close: () => deps.close() };
}

/** Every product (with its SKU ids) and SKU, read straight from the tables. */
export async function loadItems(deps: Deps): Promise<CatalogItem[]> {
  const products: ProductRow[] = await deps.db.selectFrom('products').selectAll().orderBy('created_at').execute();
  const skus: SkuRow[] = await deps.db.selectFrom('skus').selectAll().orderBy('created_at').execute();
  return [
    ...products.map((row) => ({
      object: 'product' as const,
      row,
      skuIds: skus.filter((s) => s.product_id === row.id).map((s) => s.id),
    })),
    ...skus.map((row) => ({ object: 'sku' as const, row })),
  ];
}
