import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import type { JobRunner } from '../../src/jobs/runner.js';
import { testRunner } from '../support/jobs.js';
import { assertMatchesReference } from '../support/openapi.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { customer, loyaltyCard } from '../modules/ledgers/fixtures.js';

const NOW = '2024-06-01T00:00:00.000Z';

/**
 * The reference's field enum leaves out `metadata.<key>` fields, which its own Create Orders
 * Export example names (`metadata.payment_mean`): the schema check skips those entries.
 */
const referenceFields = (body: { parameters: { fields: string[] } }) => ({
  ...body,
  parameters: { ...body.parameters, fields: body.parameters.fields.filter((field) => !field.startsWith('metadata.')) },
});

/** POST /v1/exports, the job run to its end by a real runner, and the file downloaded: whole CSV texts. */
describe('exports: each exported object as CSV, with fields, order and filters', () => {
  let server: TestServer;
  let runner: JobRunner;
  const clock = fixedClock(NOW);
  before(async () => {
    server = await startTestServer({ clock });
    runner = testRunner(server.deps);
  });
  after(async () => {
    await runner.stop();
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const post = async (path: string, body: unknown) => {
    const res = await server.request('POST', path, { body });
    assert.equal(res.status, 200, res.text);
    clock.advance(1000);
    return res.body;
  };

  /** Creates the export, checks the SCHEDULED answer whole, waits for DONE and returns the CSV. */
  async function exportCsv(
    body: { exported_object: string; parameters?: Record<string, unknown> },
    fields: string[],
  ): Promise<string> {
    const created = await server.request('POST', '/v1/exports', { body });
    assert.equal(created.status, 200, created.text);
    const id = created.body.id as string;
    assert.match(id, /^exp_[0-9A-Za-z]{16}$/);
    const parameters = { ...(body.parameters ?? {}), fields };
    const scheduled = {
      id,
      object: 'export',
      created_at: clock.now().toISOString(),
      status: 'SCHEDULED',
      channel: 'API',
      exported_object: body.exported_object,
      parameters,
      result: null,
      user_id: null,
    };
    assert.deepEqual(created.body, scheduled);
    assertMatchesReference('POST', '/v1/exports', 200, referenceFields(created.body));
    const done = await waitForExport(id);
    assert.deepEqual(done, {
      ...scheduled,
      status: 'DONE',
      result: { url: `${server.url}/v1/exports/${id}/download` },
    });
    assertMatchesReference('GET', '/v1/exports/{exportId}', 200, referenceFields(done));
    const file = await server.request('GET', `/v1/exports/${id}/download`);
    assert.equal(file.status, 200);
    assert.deepEqual(
      [file.headers.get('content-type'), file.headers.get('content-disposition')],
      ['text/csv; charset=utf-8', `attachment; filename="${body.exported_object}-${id}.csv"`],
    );
    return file.text;
  }

  async function waitForExport(id: string) {
    for (let i = 0; i < 400; i += 1) {
      const res = await server.request('GET', `/v1/exports/${id}`);
      assert.equal(res.status, 200);
      if (res.body.status === 'DONE' || res.body.status === 'ERROR') return res.body;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return assert.fail(`export ${id} did not end`);
  }

  const lines = (...rows: string[]) => rows.map((row) => `${row}\r\n`).join('');

  it('customers: quoting of commas, quotes and newlines, metadata keys, address fields, an order and a filter', async () => {
    const ann = await post('/v1/customers', {
      source_id: 'ann',
      name: 'Ann, "the" first',
      email: 'ann@example.com',
      metadata: { tier: 3, note: 'line one\nline two' },
      address: { city: 'Kraków' },
    });
    await post('/v1/customers', { source_id: 'bob', name: 'Bob', metadata: { tier: 1 } });
    const cy = await post('/v1/customers', { source_id: 'cy', name: 'Cy', metadata: { tier: 5, note: 'a,b' } });
    const fields = ['id', 'source_id', 'name', 'email', 'address_city', 'metadata.tier', 'metadata.note', 'created_at'];
    const csv = await exportCsv(
      {
        exported_object: 'customer',
        parameters: {
          fields,
          order: '-created_at',
          filters: { junction: 'and', 'metadata.tier': { conditions: { $more_than: 2 } } },
        },
      },
      fields,
    );
    assert.equal(
      csv,
      lines(
        fields.join(','),
        `${cy.id},cy,Cy,,,5,"a,b",${cy.created_at}`,
        `${ann.id},ann,"Ann, ""the"" first",ann@example.com,Kraków,3,"line one\nline two",${ann.created_at}`,
      ),
    );
    assert.equal(
      await exportCsv({ exported_object: 'customer' }, ['name', 'source_id']),
      lines('name,source_id', '"Ann, ""the"" first",ann', 'Bob,bob', 'Cy,cy'),
    );
  });

  it("vouchers: the reference's default fields, an order by code, a filter on the type", async () => {
    await post('/v1/vouchers/B-GIFT', { type: 'GIFT_VOUCHER', gift: { amount: 5000 }, metadata: { shop: 'north' } });
    await post('/v1/vouchers/A-TEN', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } });
    await post('/v1/vouchers/C-OFF', {
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'AMOUNT', amount_off: 250 },
      redemption: { quantity: 3 },
    });
    const defaults = ['code', 'voucher_type', 'value', 'discount_type'];
    assert.equal(
      await exportCsv({ exported_object: 'voucher', parameters: { order: 'code' } }, defaults),
      lines(
        'code,voucher_type,value,discount_type',
        'A-TEN,DISCOUNT_VOUCHER,10,PERCENT',
        'B-GIFT,GIFT_VOUCHER,5000,',
        'C-OFF,DISCOUNT_VOUCHER,250,AMOUNT',
      ),
    );
    const fields = [
      'code',
      'gift_balance',
      'redemption_quantity',
      'redemption_count',
      'active',
      'metadata',
      'campaign',
    ];
    assert.equal(
      await exportCsv(
        {
          exported_object: 'voucher',
          parameters: {
            fields,
            order: '-code',
            filters: {
              voucher_type: { conditions: { $in: ['GIFT_VOUCHER', 'DISCOUNT_VOUCHER'] } },
              code: { conditions: { $starts_with: 'B' } },
            },
          },
        },
        fields,
      ),
      lines(fields.join(','), 'B-GIFT,5000,,0,true,"{""shop"":""north""}",'),
    );
  });

  it('orders: amounts, a metadata field, a filter on the status', async () => {
    const paid = await post('/v1/orders', {
      source_id: 'o-paid',
      status: 'PAID',
      amount: 10000,
      discount_amount: 500,
      metadata: { payment_mean: 'card' },
    });
    const fresh = await post('/v1/orders', { source_id: 'o-new', status: 'CREATED', amount: 700 });
    const fields = [
      'id',
      'source_id',
      'status',
      'amount',
      'discount_amount',
      'total_discount_amount',
      'total_amount',
      'metadata.payment_mean',
    ];
    assert.equal(
      await exportCsv(
        { exported_object: 'order', parameters: { fields, filters: { status: { conditions: { $is: 'PAID' } } } } },
        fields,
      ),
      lines(fields.join(','), `${paid.id},o-paid,PAID,10000,500,500,9500,card`),
    );
    assert.equal(
      await exportCsv({ exported_object: 'order', parameters: { order: '-created_at' } }, [
        'id',
        'source_id',
        'status',
      ]),
      lines('id,source_id,status', `${fresh.id},o-new,CREATED`, `${paid.id},o-paid,PAID`),
    );
  });

  it('redemptions, points expirations and voucher transactions', async () => {
    const buyer = await customer(server, 'buyer');
    const redeemed = await post('/v1/redemptions', {
      customer: { source_id: 'buyer' },
      order: { amount: 2000 },
      redeemables: [{ object: 'voucher', id: 'A-TEN' }],
    });
    const redemption = redeemed.redemptions[0];
    assert.equal(
      await exportCsv({ exported_object: 'redemption' }, [
        'id',
        'object',
        'voucher_code',
        'customer_id',
        'date',
        'result',
      ]),
      // The stacked call's parent redemption (no voucher of its own) comes first, as it was written first.
      lines(
        'id,object,voucher_code,customer_id,date,result',
        `${redeemed.parent_redemption.id},redemption,,${buyer.id},${redemption.date},SUCCESS`,
        `${redemption.id},redemption,A-TEN,${buyer.id},${redemption.date},SUCCESS`,
      ),
    );
    const { campaign, card } = await loyaltyCard(server, 'Export program', 'EXP-CARD');
    const dated = await post('/v1/loyalties/members/EXP-CARD/balance', {
      points: 40,
      expiration_type: 'CUSTOM_DATE',
      expiration_date: '2025-01-31',
      source_id: 'crm, "1"',
    });
    await post('/v1/loyalties/members/EXP-CARD/balance', {
      points: 7,
      expiration_type: 'NON_EXPIRING',
      reason: 'never',
    });
    assert.equal(dated.balance, 40);
    const expiring = await exportCsv({ exported_object: 'points_expiration', parameters: { order: '-expires_at' } }, [
      'id',
      'campaign_id',
      'voucher_id',
      'status',
      'expires_at',
      'points',
    ]);
    assert.match(
      expiring,
      new RegExp(
        `^id,campaign_id,voucher_id,status,expires_at,points\r\nlopb_\\w+,${campaign.id},${card.id},ACTIVE,2025-01-31,40\r\n$`,
      ),
    );
    const fields = ['voucher_id', 'type', 'source_id', 'reason', 'amount', 'balance'];
    assert.equal(
      await exportCsv(
        {
          exported_object: 'voucher_transactions',
          parameters: { fields, order: '-created_at', filters: { voucher_id: { conditions: { $in: [card.id] } } } },
        },
        fields,
      ),
      lines(
        fields.join(','),
        `${card.id},POINTS_ADDITION,,never,7,47`,
        `${card.id},POINTS_ADDITION,"crm, ""1""",,40,40`,
      ),
    );
  });
});
