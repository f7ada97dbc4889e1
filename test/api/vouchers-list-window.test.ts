import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FILTER_WINDOW_ROWS } from '../../src/db/filter-window.js';
import { fixedClock } from '../../src/lib/clock.js';
import { discountCampaign, loyaltyCampaign, percentDiscount } from '../support/factories.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const clock = fixedClock('2025-03-01T10:00:00.000Z');
const MINUTE = 60_000;
const at = (minutes: number) => new Date(Date.parse('2025-03-01T10:00:00.000Z') + minutes * MINUTE).toISOString();
const f = (field: string, op: string, value = '') =>
  `filters[${field}][conditions][${op}]=${encodeURIComponent(value)}`;
const complete = (examined: number) => `complete; examined=${examined}; limit=${FILTER_WINDOW_ROWS}`;

/**
 * GET /v1/vouchers with the filters no index serves (list-vouchers' `filters` deep object:
 * code, campaign_ids, a junction of "or", `$is_not` ...), checked in the bounded window of
 * src/db/filter-window.ts. Newest first the vouchers are: CARD (minute 7, Club, alice's),
 * HAT-1 (5, Hats), PLAIN-1 (4), BOOT-1 (3, Footwear), SHOE-1 (2, Shoes, Footwear, updated at 8).
 */
describe('GET /v1/vouchers: filters checked in the bounded window', () => {
  let server: TestServer;
  let footwearId: string;
  let shoesId: string;
  let clubId: string;
  let card: string;

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
    // The card's code is CARD and four digits: a random code could start with B or H and match a filter meant for others.
    const cardCodes = { pattern: 'CARD####', charset: '0123456789' };
    const club = loyaltyCampaign('Club', {
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 }, code_config: cardCodes },
    });
    clubId = (await post('/v1/loyalties', club)).id; // 6
    card = (await post(`/v1/loyalties/${clubId}/members`, { customer: { source_id: 'alice' } })).code; // 7
    assert.match(card, /^CARD\d{4}$/);
    footwearId = (await server.request('GET', '/v1/vouchers/BOOT-1')).body.category_id;
    clock.advance(MINUTE); // 8
    await server.request('PUT', '/v1/vouchers/SHOE-1', { body: { metadata: { a: 1 } } });
  });
  after(() => server.close());

  /** The list's codes, total and window header, after checking the envelope and each item against GET. */
  async function list(query: string): Promise<[string[], number, string | null]> {
    const res = await server.request('GET', `/v1/vouchers?${query}`);
    assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
    assertMatchesReference('GET', '/v1/vouchers', 200, withoutNulls(res.body));
    const { vouchers, ...envelope } = res.body;
    assert.deepEqual(envelope, { object: 'list', data_ref: 'vouchers', total: envelope.total });
    for (const voucher of vouchers)
      assert.deepEqual(voucher, (await server.request('GET', `/v1/vouchers/${voucher.code}`)).body);
    return [vouchers.map((v: { code: string }) => v.code), res.body.total, res.headers.get('x-promo-filter-window')];
  }

  it('checks code, campaign_ids, categories, type, flags, dates and a junction of "or"', async () => {
    const cases: Array<[string, string[], number?]> = [
      [`${f('code', '$in][0', 'BOOT-1')}&${f('code', '$in][1', 'HAT-1')}`, ['HAT-1', 'BOOT-1']],
      [`${f('code', '$starts_with][0', 'B')}&${f('code', '$starts_with][1', 'H')}`, ['HAT-1', 'BOOT-1']],
      [f('code', '$is_not', 'PLAIN-1'), [card, 'HAT-1', 'BOOT-1', 'SHOE-1']],
      [f('code', '$ends_with', '-1'), ['HAT-1', 'PLAIN-1', 'BOOT-1', 'SHOE-1']],
      [f('code', '$not_contain', '-'), [card]],
      [`${f('campaign_ids', '$in][0', shoesId)}&${f('campaign_ids', '$in][1', clubId)}`, [card, 'SHOE-1']],
      [f('campaign_id', '$is_unknown'), ['HAT-1', 'PLAIN-1', 'BOOT-1']],
      [f('category_id', '$is_not', footwearId), [card, 'HAT-1', 'PLAIN-1']],
      [f('category_ids', '$not_in', footwearId), [card, 'HAT-1', 'PLAIN-1']],
      [f('voucher_type', '$is', 'LOYALTY_CARD'), [card]],
      [f('type', '$not_in', 'LOYALTY_CARD'), ['HAT-1', 'PLAIN-1', 'BOOT-1', 'SHOE-1']],
      [f('active', '$is', 'true'), [card, 'HAT-1', 'PLAIN-1', 'BOOT-1', 'SHOE-1']],
      [f('is_referral_code', '$is', 'true'), []],
      [f('holder_id', '$has_value'), [card]],
      [f('expiration_date', '$has_value'), []],
      [
        `filters[junction]=OR&${f('category_id', '$is', footwearId)}&${f('code', '$is', 'PLAIN-1')}`,
        ['PLAIN-1', 'BOOT-1', 'SHOE-1'],
      ],
      [
        `filters[junction]=or&${f('created_at', '$after', at(4))}&${f('code', '$is', 'SHOE-1')}`,
        [card, 'HAT-1', 'SHOE-1'],
      ],
      // Beside an indexed filter: the window holds the campaign's vouchers only.
      [`campaign=Shoes&${f('campaign_id', '$is', clubId)}`, [], 1],
      [`${f('campaign_id', '$is', shoesId)}&${f('code', '$is_not', 'X')}`, ['SHOE-1'], 1],
      // A category with another order than created_at: checked in the window, in that order.
      [`${f('category_id', '$is', footwearId)}&order=-updated_at`, ['SHOE-1', 'BOOT-1']],
      [`category=Footwear&${f('campaign_ids', '$is', shoesId)}`, ['SHOE-1'], 2],
    ];
    for (const [query, expected, examined = 5] of cases) {
      assert.deepEqual(await list(query), [expected, expected.length, complete(examined)], query);
    }
    // Indexed filters alone read no window.
    assert.deepEqual(await list(f('campaign_id', '$is', shoesId)), [['SHOE-1'], 1, null]);
  });

  it('pages the matches, with the total of the window', async () => {
    assert.deepEqual(await list(`${f('code', '$ends_with', '-1')}&limit=2&page=2&order=code`), [
      ['PLAIN-1', 'SHOE-1'],
      4,
      complete(5),
    ]);
  });

  it('takes the filters as @voucherify/sdk sends them', async () => {
    const client = serverSideClient(server);
    const filters = {
      junction: 'OR',
      campaign_ids: { conditions: { $in: [shoesId, clubId] } },
      code: { conditions: { $is: 'HAT-1' } },
    };
    const listed = await client.vouchers.list({ filters });
    const query = `filters[junction]=OR&${f('campaign_ids', '$in][0', shoesId)}&${f('campaign_ids', '$in][1', clubId)}&${f('code', '$is', 'HAT-1')}`;
    assert.deepEqual(listed, (await server.request('GET', `/v1/vouchers?${query}`)).body);
    assert.deepEqual([listed.vouchers.map((v) => v.code), listed.total], [[card, 'HAT-1', 'SHOE-1'], 3]);
    const notPlain = await client.vouchers.list({
      filters: { junction: 'AND', code: { conditions: { $not_in: ['PLAIN-1', 'HAT-1'] } } },
      limit: 2,
    });
    assert.deepEqual([notPlain.vouchers.map((v) => v.code), notPlain.total], [[card, 'BOOT-1'], 3]);
  });
});
