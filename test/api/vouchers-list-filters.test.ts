import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { invalidQueryError } from '../support/error-bodies.js';
import { discountCampaign, loyaltyCampaign, percentDiscount } from '../support/factories.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';

const clock = fixedClock('2025-03-01T10:00:00.000Z');
const MINUTE = 60_000;
const FIELDS =
  'id, code, campaign_id, campaign_ids, category_id, category_ids, holder_id, type, voucher_type, active, is_referral_code, created_at, updated_at, start_date, expiration_date';
const ORDER_REFUSAL =
  'category lists are ordered by created_at only (newest first by default, or order=created_at): an index for each order would slow the generation of every categorized campaign';
const at = (minutes: number) => new Date(Date.parse('2025-03-01T10:00:00.000Z') + minutes * MINUTE).toISOString();

/**
 * GET /v1/vouchers filters (issue 14, point 3): campaign, category (id or name), customer
 * (holder id or source_id), created_at and updated_at ranges, each with the orders; the
 * answers are whole vouchers, equal to GET's, in the list envelope of the reference.
 */
describe('GET /v1/vouchers filters', () => {
  let server: TestServer;
  let footwearId: string;
  let aliceId: string;
  let cardCode: string;
  let shoesId: string;
  let clubId: string;

  before(async () => {
    server = await startTestServer({ clock });
    const post = async (path: string, body: unknown) => {
      clock.advance(MINUTE);
      const res = await server.request('POST', path, { body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    shoesId = (await post('/v1/campaigns', discountCampaign('Shoes', { category: 'Footwear' }))).id; // minute 1
    await post('/v1/campaigns/Shoes/vouchers/SHOE-1', {}); // 2
    await post('/v1/vouchers/BOOT-1', { discount: percentDiscount, category: 'Footwear' }); // 3
    await post('/v1/vouchers/PLAIN-1', { discount: percentDiscount }); // 4
    await post('/v1/vouchers/HAT-1', { discount: percentDiscount, category: 'Hats' }); // 5
    const program = await post('/v1/loyalties', loyaltyCampaign('Club')); // 6
    clubId = program.id;
    const card = await post(`/v1/loyalties/${program.id}/members`, { customer: { source_id: 'alice' } }); // 7
    cardCode = card.code;
    aliceId = card.holder_id;
    footwearId = (await server.request('GET', '/v1/vouchers/BOOT-1')).body.category_id;
    clock.advance(MINUTE); // 8
    await server.request('PUT', '/v1/vouchers/SHOE-1', { body: { metadata: { a: 1 } } });
  });
  after(() => server.close());

  /** The list's codes and total, after checking the envelope against the reference and each item against GET. */
  async function codes(query: string): Promise<[string[], number]> {
    const res = await server.request('GET', `/v1/vouchers?${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesReference('GET', '/v1/vouchers', 200, withoutNulls(res.body));
    const { vouchers, ...envelope } = res.body;
    assert.deepEqual(envelope, { object: 'list', data_ref: 'vouchers', total: envelope.total });
    for (const voucher of vouchers)
      assert.deepEqual(voucher, (await server.request('GET', `/v1/vouchers/${voucher.code}`)).body);
    return [vouchers.map((v: { code: string }) => v.code), res.body.total];
  }

  it('filters by category, given by name or id, newest or oldest first', async () => {
    assert.deepEqual(await codes('category=Footwear'), [['BOOT-1', 'SHOE-1'], 2]);
    assert.deepEqual(await codes(`category=${footwearId}&order=created_at`), [['SHOE-1', 'BOOT-1'], 2]);
    assert.deepEqual(await codes('category=Footwear&order=-created_at&customer=alice'), [[], 0]);
    assert.deepEqual(await codes('category=Hats'), [['HAT-1'], 1]);
    assert.deepEqual(await codes('category=Nothing'), [[], 0]);
  });

  it('filters by customer, the holder given by id or source_id', async () => {
    assert.deepEqual(await codes('customer=alice'), [[cardCode], 1]);
    assert.deepEqual(await codes(`customer=${aliceId}&campaign=Club&order=-code`), [[cardCode], 1]);
    assert.deepEqual(await codes('customer=alice&campaign=Shoes'), [[], 0]);
    assert.deepEqual(await codes('customer=nobody'), [[], 0]);
  });

  it('filters by created_at and updated_at ranges (strict bounds), alone and with other filters', async () => {
    assert.deepEqual(await codes(`created_at[after]=${at(2)}&created_at[before]=${at(5)}&order=created_at`), [
      ['BOOT-1', 'PLAIN-1'],
      2,
    ]);
    assert.deepEqual(await codes(`created_at[after]=${at(2)}&category=Footwear`), [['BOOT-1'], 1]);
    assert.deepEqual(await codes(`updated_at[after]=${at(7)}&order=code`), [['SHOE-1'], 1]);
    assert.deepEqual(await codes(`updated_at[before]=${at(9)}&campaign=Shoes`), [['SHOE-1'], 1]);
    assert.deepEqual(await codes(`created_at[before]=${at(2)}`), [[], 0]);
  });

  it("takes the reference's filters deep object for what the indexes serve", async () => {
    const both = `filters[junction]=and&filters[category_id][conditions][$is]=${footwearId}&filters[created_at][conditions][$after]=${at(2)}`;
    assert.deepEqual(await codes(both), [['BOOT-1'], 1]);
    assert.deepEqual(await codes(`filters[holder_id][conditions][$in][0]=${aliceId}&order=code`), [[cardCode], 1]);
    assert.deepEqual(
      await codes(`filters[updated_at][conditions][$before]=${at(9)}&filters[updated_at][conditions][$after]=${at(7)}`),
      [['SHOE-1'], 1],
    );
  });

  it('refuses every filter it does not know and what no index serves between plain parameters, naming it', async () => {
    const cases: Array<[string, string]> = [
      ['category=Footwear&order=code', ORDER_REFUSAL],
      [
        'campaign=Shoes&category=Footwear',
        'campaign and category cannot be combined: no index serves both (filter by one of them)',
      ],
      ['filters[metadata.a][conditions][$is]=1', `filters.metadata.a is not a known field; allowed: ${FIELDS}`],
      ['filters[campaign_id][conditions][$like]=x', 'filters.campaign_id.conditions.$like is not a known operator'],
      [
        'filters[created_at][conditions][$is]=x',
        'filters.created_at.conditions.$is does not apply to created_at (a date field)',
      ],
      [
        'filters[code][conditions][$more_than]=1',
        'filters.code.conditions.$more_than does not apply to code (a string field)',
      ],
      [
        'filters[created_at][conditions][$is_days_ago]=1',
        'filters.created_at.conditions.$is_days_ago must be an array of exactly one non-negative integer (a number of days)',
      ],
      [
        'filters[junction]=xor&filters[code][conditions][$is]=A',
        'filters.junction is required and must be "and" or "or"',
      ],
      ['filters=x', 'Unknown query parameter(s): filters'],
      ['created_at[since]=2025-01-01', 'Unknown query parameter(s): created_at[since]'],
      ['created_at[after]=soon', 'Query parameter created_at[after] must be an ISO 8601 date-time'],
    ];
    for (const [query, details] of cases) {
      const res = await server.request('GET', `/v1/vouchers?${query}`);
      assert.equal(res.status, 400, query);
      assert.deepEqual(res.body, errorBody(res, invalidQueryError(details)), query);
    }
  });

  it('serves the official client, whose deep objects arrive as the reference names them', async () => {
    const client = serverSideClient(server);
    const listed = await client.vouchers.list({ category: 'Footwear', created_at: { after: at(2) } } as never);
    assert.deepEqual(
      listed,
      (await server.request('GET', `/v1/vouchers?category=Footwear&created_at[after]=${at(2)}`)).body,
    );
    assert.deepEqual(
      listed.vouchers.map((v: { code: string }) => v.code),
      ['BOOT-1'],
    );
    const filtered = await client.vouchers.list({
      filters: { junction: 'and', category_id: { conditions: { $is: [footwearId] } } },
      order: 'created_at',
    } as never);
    assert.deepEqual(
      filtered.vouchers.map((v: { code: string }) => v.code),
      ['SHOE-1', 'BOOT-1'],
    );
  });
});
