/**
 * Defects the mutation sweep (robustness-mutations.test.ts) found, one focused test each:
 * the whole answer, and a database left as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../support/db.js';
import { invalidPayloadError, invalidQueryError, notFoundError, type ExpectedError } from '../support/error-bodies.js';
import { discountCampaign, loyaltyCampaign } from '../support/factories.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

describe("the mutation sweep's findings", () => {
  let server: TestServer;
  let tierId: string;

  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Camp') });
    const promotion = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Promo',
        campaign_type: 'PROMOTION',
        promotion: { tiers: [{ name: 'Off', action: { discount: { type: 'AMOUNT', amount_off: 100 } } }] },
      },
    });
    tierId = promotion.body.promotion.tiers[0].id;
    await server.request('POST', '/v1/campaigns', { body: loyaltyCampaign('Club') });
    await server.request('POST', '/v1/campaigns/Camp/vouchers', { body: { code: 'LOCKED' } });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  /** Sends a raw JSON body (or none); asserts the whole error body and that nothing was written. */
  async function refused(
    method: string,
    path: string,
    raw: string | undefined,
    expected: ExpectedError,
  ): Promise<void> {
    const before = dbFingerprint(sqliteOf(server.deps));
    const res = await server.request(
      method,
      path,
      raw === undefined ? {} : { raw, headers: { 'Content-Type': 'application/json' } },
    );
    assert.deepEqual([res.status, res.body], [expected.code, errorBody(res, expected)]);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before, 'a refused request changed the database');
  }

  it("refuses integers beyond 2^53 (1e308 passed yup's integer() and made the STRICT column throw: a 500)", async () => {
    const max = 'must be less than or equal to 9007199254740991';
    await refused(
      'POST',
      '/v1/vouchers',
      '{"type":"GIFT_VOUCHER","gift":{"amount":1e308}}',
      invalidPayloadError(`gift.amount ${max}`),
    );
    await refused(
      'POST',
      '/v1/vouchers',
      '{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":5},"redemption":{"quantity":1e308}}',
      invalidPayloadError(`redemption.quantity ${max}`),
    );
    await refused(
      'POST',
      '/v1/campaigns',
      '{"name":"G","campaign_type":"GIFT_VOUCHERS","voucher":{"type":"GIFT_VOUCHER","gift":{"amount":9007199254740993}}}',
      invalidPayloadError(`voucher.gift.amount ${max}`),
    );
    await refused(
      'POST',
      '/v1/campaigns/Camp/vouchers',
      '{"code":"BIG","redemption":{"quantity":1e308}}',
      invalidPayloadError(`redemption.quantity ${max}`),
    );
    await refused(
      'PUT',
      `/v1/promotions/tiers/${tierId}`,
      '{"hierarchy":1e308}',
      invalidPayloadError(`hierarchy ${max}`),
    );
  });

  it('creates a PROMOTION campaign whose promotion leaves tiers out or null, as with no tiers (was a 500: undefined is not iterable)', async () => {
    const create = async (name: string, promotion: unknown) => {
      const res = await server.request('POST', '/v1/campaigns', {
        body: { name, campaign_type: 'PROMOTION', promotion },
      });
      assert.equal(res.status, 200, res.text);
      const { id, name: _name, created_at, ...rest } = res.body;
      assert.match(id, /^camp_/);
      return rest;
    };
    const empty = await create('No tiers', { tiers: [] });
    assert.deepEqual(empty.promotion, { object: 'list', data_ref: 'tiers', tiers: [], total: 0, has_more: false });
    assert.deepEqual(await create('Tiers left out', {}), empty);
    assert.deepEqual(await create('Tiers null', { tiers: null }), empty);
  });

  it('refuses an earning rule whose calculation_type is not one it knows (was a 500: its block was looked up first)', async () => {
    const rule = (calculationType: unknown) =>
      JSON.stringify([
        {
          event: 'order.paid',
          loyalty: {
            type: 'PROPORTIONAL',
            calculation_type: calculationType,
            order: { amount: { every: 100, points: 1 } },
          },
        },
      ]);
    const oneOf =
      'must be one of the following values: ORDER_AMOUNT, ORDER_TOTAL_AMOUNT, ORDER_METADATA, ORDER_ITEMS_QUANTITY, ORDER_ITEMS_AMOUNT, ORDER_ITEMS_SUBTOTAL_AMOUNT, CUSTOMER_METADATA, CUSTOM_EVENT_METADATA';
    await refused(
      'POST',
      '/v1/loyalties/Club/earning-rules',
      rule('ORDER_VOLUME'),
      invalidPayloadError(`[0].loyalty.calculation_type ${oneOf}`),
    );
    await refused(
      'POST',
      '/v1/loyalties/Club/earning-rules',
      rule('constructor'),
      invalidPayloadError(`[0].loyalty.calculation_type ${oneOf}`),
    );
    await refused(
      'POST',
      '/v1/loyalties/Club/earning-rules',
      rule(7),
      invalidPayloadError(`[0].loyalty.calculation_type must be a string; [0].loyalty.calculation_type ${oneOf}`),
    );
  });

  it('refuses a publication whose campaign.name is not a string (was cast to check, then sent on as is: a 500)', async () => {
    const publication = (name: unknown) => JSON.stringify({ campaign: { name }, customer: { source_id: 'ann' } });
    await refused('POST', '/v1/publications', publication(true), invalidPayloadError('campaign.name must be a string'));
    await refused('POST', '/v1/publications', publication(12), invalidPayloadError('campaign.name must be a string'));
  });

  it('refuses a number too large for a double (JSON.parse made 1e400 Infinity, stored as null: a bulk job set the name to null)', async () => {
    const huge = invalidPayloadError(
      'Request body holds a number too large to represent (its magnitude must stay below 1.8e308)',
    );
    await refused('POST', '/v1/customers/bulk/async', '[{"source_id":"c-1","name":1e400}]', huge);
    await refused('POST', '/v1/products/bulk/async', `[{"source_id":"p-1","name":-${'9'.repeat(400)}}]`, huge);
    await refused(
      'POST',
      '/v1/vouchers',
      '{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":1E+400}}',
      huge,
    );
    // The same text inside a string is a string.
    const named = await server.request('POST', '/v1/customers', {
      raw: '{"source_id":"big","name":"1e400 and 1E+999"}',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.deepEqual([named.status, named.body.name], [200, '1e400 and 1E+999']);
  });

  it('refuses a NUL character in any string or key, metadata too (PostgreSQL text and jsonb cannot hold it: a 500 there, while SQLite kept it)', async () => {
    const nul = invalidPayloadError('Request body holds a NUL character (U+0000), which no text field may hold');
    await refused('POST', '/v1/customers', '{"source_id":"nul-1","name":"a\\u0000b"}', nul);
    await refused('PUT', '/v1/customers/nul-1', '{"address":{"city":"\\u0000"}}', nul);
    await refused('POST', '/v1/products', '{"name":"p","metadata":{"k":["x\\u0000"]}}', nul);
    await refused('POST', '/v1/products', '{"name":"p","metadata":{"k\\u0000":1}}', nul);
    await refused('POST', '/v1/customers/bulk/async', '[{"source_id":"nul-2","name":"\\u0000"}]', nul);
    // The escape's text without the character is text.
    const named = await server.request('POST', '/v1/customers', {
      raw: '{"source_id":"nul-3","name":"a\\\\u0000b"}',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.deepEqual([named.status, named.body.name], [200, 'a\\u0000b']);
  });

  it('refuses a NUL character in a path id or a query parameter (a lookup by it was a 500 on PostgreSQL; SQLite created a voucher coded NUL)', async () => {
    const inPath = invalidPayloadError('The path holds a NUL character (%00), which no id may hold');
    const inQuery = invalidQueryError('The query string holds a NUL character (%00), which no parameter may hold');
    const cases: Array<[string, string, ExpectedError]> = [
      ['GET', '/v1/customers/a%00b', inPath],
      ['DELETE', '/v1/vouchers/LOCKED%00', inPath],
      ['POST', '/v1/campaigns/Camp/vouchers/%00', inPath],
      ['GET', '/v1/vouchers?campaign=%00', inQuery],
      ['GET', '/v1/customers?limit=1&email=a%00', inQuery],
    ];
    for (const [method, path, expected] of cases)
      await refused(method, path, method === 'POST' ? '{}' : undefined, expected);
    // An encoded percent sign followed by zeros is text.
    const voucher = await server.request('GET', '/v1/vouchers/%2500');
    assert.deepEqual([voucher.status, voucher.body.details], [404, 'Cannot find voucher with id %00']);
  });

  it('refuses a session lock that would outlast 36,500 days (its expiry was an invalid date: a 500)', async () => {
    const validation = (ttl: number, unit: string) =>
      JSON.stringify({
        redeemables: [{ object: 'voucher', id: 'LOCKED' }],
        order: { amount: 1000 },
        session: { type: 'LOCK', key: `k-${ttl}`, ttl, ttl_unit: unit },
      });
    const tooLong = invalidPayloadError('session.ttl must last at most 36500 days');
    await refused('POST', '/v1/validations', validation(1e15, 'DAYS'), tooLong);
    await refused('POST', '/v1/validations', validation(36_501, 'DAYS'), tooLong);
    await refused('POST', '/v1/validations', validation(1e308, 'NANOSECONDS'), tooLong);
    const longest = await server.request('POST', '/v1/validations', {
      raw: validation(36_500 * 24, 'HOURS'),
      headers: { 'Content-Type': 'application/json' },
    });
    assert.deepEqual(
      [longest.status, longest.body.valid, longest.body.session],
      [200, true, { key: 'k-876000', type: 'LOCK', ttl: 876000, ttl_unit: 'HOURS' }],
    );
  });

  it("leaves no session row behind when a validation naming a new session is refused (its claim's row stayed)", async () => {
    // An unknown referrer is refused after the session's claim (an unknown product no longer is: it is kept as sent).
    const body = (referrerId: string) =>
      JSON.stringify({
        redeemables: [{ object: 'voucher', id: 'LOCKED' }],
        order: { referrer_id: referrerId, items: [{ quantity: 1, price: 100 }] },
        session: { type: 'LOCK', key: 'refused-session' },
      });
    await refused('POST', '/v1/validations', body('cust_none'), notFoundError('customer', 'cust_none'));
    assert.deepEqual(
      sqliteOf(server.deps).prepare("SELECT count(*) AS n FROM session_locks WHERE key = 'refused-session'").get(),
      { n: 0 },
    );
  });

  it('refuses a list of weekdays longer than a week and more than 100 daily time windows (both were stored whole)', async () => {
    const week = (days: number[]) => JSON.stringify(discountCampaign('Week', { validity_day_of_week: days }));
    await refused(
      'POST',
      '/v1/campaigns',
      week(Array.from({ length: 8 }, (_, i) => i % 7)),
      invalidPayloadError('validity_day_of_week must hold at most 7 days'),
    );
    const window = { start_time: '10:00', expiration_time: '12:00', days_of_week: [1, 2] };
    const hours = JSON.stringify(
      discountCampaign('Hours', {
        start_date: '2026-01-01',
        validity_timeframe: undefined,
        validity_hours: { daily: Array.from({ length: 101 }, () => window) },
      }),
    );
    await refused(
      'POST',
      '/v1/campaigns',
      hours,
      invalidPayloadError('validity_hours.daily must hold at most 100 time windows'),
    );
    const fine = await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Weekdays', { validity_day_of_week: [1, 2, 3, 4, 5, 6, 0] }),
    });
    assert.deepEqual([fine.status, fine.body.validity_day_of_week], [200, [1, 2, 3, 4, 5, 6, 0]]);
  });

  it("refuses a product's attribute list and a collection's filter beyond 64 KiB as JSON (both were stored whole)", async () => {
    const attributes = Array.from({ length: 300 }, (_, i) => `${i}`.padEnd(255, 'a'));
    await refused(
      'POST',
      '/v1/products',
      JSON.stringify({ name: 'Wide', attributes }),
      invalidPayloadError('attributes must be at most 65536 bytes as JSON'),
    );
    const filter = Object.fromEntries([
      ['junction', 'and'],
      ...Array.from({ length: 2000 }, (_, i) => [`metadata.k${i}`, { conditions: { $is: ['x'] } }]),
    ]);
    await refused(
      'POST',
      '/v1/product-collections',
      JSON.stringify({ type: 'AUTO_UPDATE', name: 'Wide', filter }),
      invalidPayloadError('filter must be at most 65536 bytes as JSON'),
    );
  });

  it('refuses export filters beyond 64 KiB as JSON (200,000 $in values were stored and answered whole)', async () => {
    const filters = {
      junction: 'and',
      code: { conditions: { $in: Array.from({ length: 10_000 }, (_, i) => `CODE-${i}`) } },
    };
    await refused(
      'POST',
      '/v1/exports',
      JSON.stringify({ exported_object: 'voucher', parameters: { filters } }),
      invalidPayloadError('parameters.filters must be at most 65536 bytes as JSON'),
    );
  });
});
