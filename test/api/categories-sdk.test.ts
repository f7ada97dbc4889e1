import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { dbFingerprint } from '../support/db.js';
import { assertMatchesReference } from '../support/openapi.js';
import { beyondSdkTypes, serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2025-07-01T08:00:00.000Z';
/** A category as the API answers it: the fields the tests read, and the rest. */
interface Category {
  id: string;
  name: string;
  hierarchy: number;
  [field: string]: unknown;
}

/** A page of categories. */
interface CategoryList {
  data: Category[];
  [field: string]: unknown;
}

/** A campaign or voucher with the categories it shows. */
interface WithCategories {
  categories: [Category, ...Category[]];
}

/** An error as the SDK rejects with it: the API's error body. */
interface ApiError {
  code: number;
  key: string;
  details: string;
}

/**
 * The reference's category endpoints through @voucherify/sdk (categories.create, list, get,
 * update, delete): categories were made only on first use of a `category` name, all with
 * hierarchy 0, so the stacking rules' CATEGORY_HIERARCHY order could not be set at all.
 */
describe('categories through @voucherify/sdk', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  const clock = fixedClock(NOW);
  before(async () => {
    server = await startTestServer({ clock });
    sdk = serverSideClient(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });
  const refused = (status: number, key: string, details: string) => (error: ApiError) => {
    assert.deepEqual([error.code, error.key, error.details], [status, key, details]);
    return true;
  };

  it('creates, reads, lists, renames, reorders and deletes a category', async () => {
    const food = (await sdk.categories.create({ name: 'Food', hierarchy: 2 })) as unknown as Category;
    assert.match(food.id, /^cat_/);
    assert.deepEqual(food, { id: food.id, name: 'Food', hierarchy: 2, object: 'category', created_at: NOW });
    assertMatchesReference('POST', '/v1/categories', 200, { ...food, updated_at: undefined });
    const got = await sdk.categories.get(food.id);
    assert.deepEqual(got, food);
    assertMatchesReference('GET', '/v1/categories/{categoryId}', 200, { ...food, updated_at: undefined });

    // A category made on first use of a name lists beside it.
    await sdk.campaigns.create(
      beyondSdkTypes({
        name: 'Cat Spring',
        campaign_type: 'DISCOUNT_COUPONS',
        category: 'Seasonal',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
      }),
    );
    const list = (await sdk.categories.list()) as unknown as CategoryList;
    const seasonal = list.data.find((c: Category) => c.name === 'Seasonal')!;
    assert.deepEqual(list, {
      object: 'list',
      data_ref: 'data',
      data: [food, { id: seasonal.id, name: 'Seasonal', hierarchy: 0, object: 'category', created_at: NOW }],
      total: 2,
    });
    assertMatchesReference('GET', '/v1/categories', 200, {
      ...list,
      data: list.data.map((c: Category) => ({ ...c, updated_at: undefined })),
    });

    clock.advance(60_000);
    const later = new Date(Date.parse(NOW) + 60_000).toISOString();
    const renamed = await sdk.categories.update(food.id, { name: 'Groceries', hierarchy: 1 });
    assert.deepEqual(renamed, { ...food, name: 'Groceries', hierarchy: 1, updated_at: later });
    assertMatchesReference('PUT', '/v1/categories/{categoryId}', 200, renamed);
    assert.deepEqual(await sdk.categories.update(food.id, beyondSdkTypes({ hierarchy: 4 })), {
      ...renamed,
      hierarchy: 4,
    });
    // Campaigns and vouchers show their category as it is now.
    assert.equal(((await sdk.campaigns.get('Cat Spring')) as unknown as WithCategories).categories[0].hierarchy, 0);
    await sdk.categories.update(seasonal.id, beyondSdkTypes({ hierarchy: 3 }));
    assert.deepEqual(
      ((await sdk.campaigns.get('Cat Spring')) as unknown as WithCategories).categories.map((c: Category) => [
        c.name,
        c.hierarchy,
      ]),
      [['Seasonal', 3]],
    );

    assert.equal(await sdk.categories.delete(food.id), '');
    await assert.rejects(
      sdk.categories.get(food.id),
      refused(404, 'not_found', `Cannot find category with id ${food.id}`),
    );
    clock.set(NOW);
  });

  it('orders stacked redeemables by the hierarchy set here when the stacking rules sort by category', async () => {
    const first = (await sdk.categories.create({ name: 'First', hierarchy: 5 })) as unknown as Category;
    const second = (await sdk.categories.create({ name: 'Second', hierarchy: 6 })) as unknown as Category;
    const voucher = (code: string, category_id: string) =>
      server.request('POST', `/v1/vouchers/${code}`, {
        body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, category_id },
      });
    await voucher('CAT-A', second.id);
    await voucher('CAT-B', first.id);
    assert.equal(
      (await server.request('PUT', '/v1/stacking-rules', { body: { redeemables_sorting_rule: 'CATEGORY_HIERARCHY' } }))
        .status,
      200,
    );
    const order = async () =>
      (
        (
          await sdk.validations.validateStackable(
            beyondSdkTypes({
              order: { amount: 1000 },
              redeemables: [
                { object: 'voucher', id: 'CAT-A' },
                { object: 'voucher', id: 'CAT-B' },
              ],
            }),
          )
        ).redeemables ?? []
      ).map((r) => r.id);
    assert.deepEqual(await order(), ['CAT-B', 'CAT-A']);
    await sdk.categories.update(second.id, beyondSdkTypes({ hierarchy: 1 }));
    assert.deepEqual(await order(), ['CAT-A', 'CAT-B']);
  });

  it('refuses a taken name, bad bodies, unknown ids and a category still in use, changing nothing', async () => {
    const named = (await sdk.categories.create({ name: 'Exclusive', hierarchy: 9 })) as unknown as Category;
    assert.equal(
      (await server.request('PUT', '/v1/stacking-rules', { body: { exclusive_categories: [named.id] } })).status,
      200,
    );
    const before = dbFingerprint(sqliteOf(server.deps));
    const seasonal = ((await sdk.categories.list()) as unknown as CategoryList).data.find(
      (c: Category) => c.name === 'Seasonal',
    )!;
    const calls: Array<[() => Promise<unknown>, number, string, string]> = [
      [
        () => sdk.categories.create({ name: 'Seasonal', hierarchy: 1 }),
        409,
        'duplicate_found',
        'Duplicated category exists with name Seasonal',
      ],
      [
        () => sdk.categories.update(seasonal.id, beyondSdkTypes({ name: 'First' })),
        409,
        'duplicate_found',
        'Duplicated category exists with name First',
      ],
      [
        () => sdk.categories.create(beyondSdkTypes({ name: 'No order' })),
        400,
        'invalid_payload',
        'hierarchy is required',
      ],
      [() => sdk.categories.create(beyondSdkTypes({ hierarchy: 1 })), 400, 'invalid_payload', 'name is required'],
      [
        () => sdk.categories.create({ name: '', hierarchy: -1 }),
        400,
        'invalid_payload',
        'name must not be empty; hierarchy must be an integer of at least 0',
      ],
      [
        () => sdk.categories.update(seasonal.id, beyondSdkTypes({ hierarchy: 1.5 })),
        400,
        'invalid_payload',
        'hierarchy must be an integer of at least 0',
      ],
      [
        () => sdk.categories.update('cat_none', beyondSdkTypes({ hierarchy: 1 })),
        404,
        'not_found',
        'Cannot find category with id cat_none',
      ],
      [() => sdk.categories.delete('cat_none'), 404, 'not_found', 'Cannot find category with id cat_none'],
      [
        () => sdk.categories.delete(seasonal.id),
        400,
        'resource_in_use',
        `Category ${seasonal.id} is still given to campaigns, vouchers, promotion tiers or stacks`,
      ],
      [
        () => sdk.categories.delete(named.id),
        400,
        'resource_in_use',
        `Category ${named.id} is named by the stacking rules' exclusive_categories`,
      ],
    ];
    for (const [call, status, key, details] of calls) await assert.rejects(call(), refused(status, key, details));
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it('deletes a category the stacking rules no longer name', async () => {
    const named = ((await sdk.categories.list()) as unknown as CategoryList).data.find(
      (c: Category) => c.name === 'Exclusive',
    )!;
    assert.equal(
      (await server.request('PUT', '/v1/stacking-rules', { body: { exclusive_categories: [] } })).status,
      200,
    );
    assert.equal(await sdk.categories.delete(named.id), '');
    assert.deepEqual(
      ((await sdk.categories.list()) as unknown as CategoryList).data.map((c: Category) => c.name),
      ['Seasonal', 'First', 'Second'],
    );
  });
});
