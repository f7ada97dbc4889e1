import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';

type Json = Record<string, unknown>;

/**
 * A voucher's `redemption.url` (`/v1/vouchers/{code}/redemptions?page=1&limit=10`, as the
 * reference writes it) answers the voucher's redemptions in the shape of the reference's "Get
 * Voucher's Redemptions" (GET /v1/vouchers/{code}/redemption), paged as the url says.
 */
describe("a voucher's redemption.url", () => {
  let server: TestServer;
  /** What each POST /v1/redemptions answered for the voucher, oldest first. */
  const records: Json[] = [];
  before(async () => {
    server = await startTestServer();
    const created = await server.request('POST', '/v1/vouchers/URL-PCT', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    });
    assert.equal(created.status, 200, created.text);
    for (let i = 0; i < 12; i++) {
      const res = await server.request('POST', '/v1/redemptions', {
        body: { redeemables: [{ object: 'voucher', id: 'URL-PCT' }], order: { amount: 1000 + i } },
      });
      assert.equal(res.status, 200, res.text);
      records.push(res.body.redemptions[0]);
    }
  });
  after(() => server.close());

  const listOf = (entries: Json[]) => ({
    quantity: null,
    redeemed_quantity: 12,
    object: 'list',
    url: '/v1/vouchers/URL-PCT/redemptions?page=1&limit=10',
    data_ref: 'redemption_entries',
    total: 12,
    redemption_entries: entries,
  });
  const newestFirst = () => [...records].reverse();

  it("is a path that answers: the ten newest records, in the reference operation's shape", async () => {
    const voucher = await server.request('GET', '/v1/vouchers/URL-PCT');
    const url = voucher.body.redemption.url as string;
    assert.equal(url, '/v1/vouchers/URL-PCT/redemptions?page=1&limit=10');
    const res = await server.request('GET', url);
    assert.deepEqual({ status: res.status, body: res.body }, { status: 200, body: listOf(newestFirst().slice(0, 10)) });
    assertMatchesReference('GET', '/v1/vouchers/{code}/redemption', 200, {
      ...withoutNulls({ ...res.body, redemption_entries: [] }),
      quantity: null,
    });
    const singular = await server.request('GET', '/v1/vouchers/URL-PCT/redemption');
    assert.deepEqual(
      singular.body,
      listOf(newestFirst()),
      "the reference's own path answers every record (up to 100), unchanged",
    );
  });

  it('takes the page and limit of its url', async () => {
    const second = await server.request('GET', '/v1/vouchers/URL-PCT/redemptions?page=2&limit=10');
    assert.deepEqual(
      { status: second.status, body: second.body },
      { status: 200, body: listOf(newestFirst().slice(10)) },
    );
    const three = await server.request('GET', '/v1/vouchers/URL-PCT/redemptions?limit=3&page=2');
    assert.deepEqual(three.body, listOf(newestFirst().slice(3, 6)));
    const defaults = await server.request('GET', '/v1/vouchers/URL-PCT/redemptions');
    assert.deepEqual(defaults.body, listOf(newestFirst().slice(0, 10)));
  });

  it('refuses a bad page or limit, and an unknown voucher, with the error body', async () => {
    const bad = await server.request('GET', '/v1/vouchers/URL-PCT/redemptions?page=0&limit=101');
    assert.deepEqual(
      { status: bad.status, body: bad.body },
      {
        status: 400,
        body: errorBody(bad, {
          code: 400,
          key: 'invalid_query_params',
          message: 'Invalid query params',
          details: bad.body.details,
        }),
      },
    );
    assert.match(bad.body.details, /Query parameter limit must be between 1 and 100/);
    assert.match(bad.body.details, /Query parameter page must be between 1 and 99/);
    const unknown = await server.request('GET', '/v1/vouchers/NO-SUCH/redemptions?page=1&limit=10');
    assert.deepEqual(
      { status: unknown.status, body: unknown.body },
      {
        status: 404,
        body: {
          ...errorBody(unknown, {
            code: 404,
            key: 'not_found',
            message: 'Resource not found',
            details: 'Cannot find voucher with id NO-SUCH',
          }),
          resource_id: 'NO-SUCH',
          resource_type: 'voucher',
        },
      },
    );
  });

  it('never answered a 500', () => {
    assert.deepEqual(server.logged, []);
  });
});
