import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { dbFingerprint } from '../support/db.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertMatchesReference } from '../support/openapi.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { errorBody, notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const T0 = '2026-05-04T09:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

/** A segment as the SDK answers it: its types leave out `id` and `initial_sync_status`. */
interface SegmentBody {
  id: string;
  initial_sync_status: string;
  [field: string]: unknown;
}

const goldFilter = {
  junction: 'AND' as const,
  'metadata.level': { conditions: { $is: ['gold'] } },
  'address.country': { conditions: { $in: ['PL', 'DE'] } },
};

/**
 * Customer segments through the official SDK (`segments.create/get/delete/list`): static ones
 * with the customers given, auto-update ones filled by their initial sync job and then following
 * every customer create and update (entered/left activities, a `customer.segment.entered`
 * earning rule crediting once per entry through the ledger), the customers list's segment_id
 * filter, deletion, and refusals that leave the database as it was.
 */
describe('segments (/v1/segments, /v1/customers/{id}/segments)', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  const clock = fixedClock(T0);
  const ids: Record<string, string> = {};
  let card: { id: string; code: string };
  let gold: { id: string };

  const post = (path: string, body?: unknown) => server.request('POST', path, { body });
  const put = (path: string, body?: unknown) => server.request('PUT', path, { body });
  const get = (path: string) => server.request('GET', path);
  const invalid = (res: TestResponse, details: string) =>
    errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details });
  const segmentTypes = async (who: string) =>
    (await get(`/v1/customers/${who}/activity?limit=20`)).body.data
      .map((e: { type: string }) => e.type)
      .filter((t: string) => t.startsWith('customer.segment.'));
  const accruals = (voucherId: string) =>
    sqliteOf(server.deps)
      .prepare(
        "SELECT count(*) AS n, coalesce(sum(delta), 0) AS points FROM ledger_entries WHERE voucher_id = ? AND type = 'POINTS_ACCRUAL'",
      )
      .get(voucherId);

  before(async () => {
    server = await startTestServer({ clock });
    sdk = serverSideClient(server);
    for (const [who, body] of [
      ['ann', { metadata: { level: 'gold' }, address: { country: 'PL' } }],
      ['bob', { metadata: { level: 'silver' }, address: { country: 'PL' } }],
      ['cid', { metadata: { level: 'gold' }, address: { country: 'FR' } }],
    ] as const) {
      const res = await post('/v1/customers', { source_id: who, ...body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      ids[who] = res.body.id;
    }
    await post('/v1/loyalties', { name: 'Club', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    const member = await post('/v1/loyalties/Club/members', { customer: { source_id: 'bob' } });
    assert.equal(member.status, 200, JSON.stringify(member.body));
    card = { id: member.body.id, code: member.body.code };
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('segments.create makes a static segment of the customers given (ids or source ids); get and list answer it', async () => {
    clock.advance(1000);
    const created = (await sdk.segments.create({
      name: 'Friends',
      type: 'static',
      customers: [ids.ann!, 'bob', 'ann'],
    })) as unknown as SegmentBody;
    const expected = {
      id: created.id,
      name: 'Friends',
      created_at: at(1),
      type: 'static',
      filter: null,
      initial_sync_status: 'DONE',
      object: 'segment',
    };
    assert.deepEqual(created, expected);
    assert.match(created.id, /^seg_[0-9A-Za-z]+$/);
    assertMatchesReference('POST', '/v1/segments', 200, created as never);
    const got = await sdk.segments.get(created.id);
    assert.deepEqual(got, expected);
    assertMatchesReference('GET', '/v1/segments/{segmentId}', 200, got as never);
    const list = await sdk.segments.list('ann');
    assert.deepEqual(list, {
      object: 'list',
      data_ref: 'data',
      data: [{ id: created.id, name: 'Friends', object: 'segment' }],
      total: 1,
    });
    assertMatchesReference('GET', '/v1/customers/{customerId}/segments', 200, list as never);
    assert.deepEqual(await sdk.segments.list('cid'), { object: 'list', data_ref: 'data', data: [], total: 0 });
    // A static segment writes no activity: its customers did not change.
    assert.deepEqual(await segmentTypes('ann'), []);
    ids.friends = created.id;
  });

  it('the customers list keeps the members of segment_id, counted in total', async () => {
    const res = await get(`/v1/customers?segment_id=${ids.friends}&order=created_at`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      [res.body.total, res.body.has_more, res.body.customers.map((c: { source_id: string }) => c.source_id)],
      [2, false, ['ann', 'bob']],
    );
    const filtered = await get(`/v1/customers?segment_id=${ids.friends}&email=nobody@x.io`);
    assert.deepEqual(filtered.body, {
      object: 'list',
      data_ref: 'customers',
      customers: [],
      total: 0,
      has_more: false,
    });
    const unknown = await get('/v1/customers?segment_id=seg_unknown');
    assert.deepEqual(unknown.body, { object: 'list', data_ref: 'customers', customers: [], total: 0, has_more: false });
  });

  it('an auto-update segment is IN_PROGRESS until its sync job adds the customers its filter holds for, then DONE', async () => {
    clock.advance(1000);
    const created = (await sdk.segments.create({
      name: 'Gold',
      type: 'auto-update',
      filter: goldFilter,
    })) as unknown as SegmentBody;
    gold = { id: created.id };
    const filter = { ...goldFilter, junction: 'and' };
    assert.deepEqual(created, {
      id: created.id,
      name: 'Gold',
      created_at: at(2),
      type: 'auto-update',
      filter,
      initial_sync_status: 'IN_PROGRESS',
      object: 'segment',
    });
    assertMatchesReference('POST', '/v1/segments', 200, created as never);
    const runner = testRunner(server.deps);
    try {
      for (
        let waited = 0;
        (await get(`/v1/segments/${created.id}`)).body.initial_sync_status !== 'DONE';
        waited += 25
      ) {
        assert.ok(waited < 30_000, 'the sync job ends');
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await runner.stop();
    }
    assert.deepEqual(await sdk.segments.get(created.id), { ...created, filter, initial_sync_status: 'DONE' });
    const job = sqliteOf(server.deps)
      .prepare("SELECT status, done_count, result FROM async_actions WHERE type = 'SEGMENTS.INITIAL_SYNC'")
      .get() as { result: string };
    assert.deepEqual(
      { ...job, result: JSON.parse(job.result) },
      {
        status: 'DONE',
        done_count: 1,
        result: { message: `Segment ${created.id} synchronized: 1 customer(s) entered.`, done_count: 1 },
      },
    );
    assert.deepEqual(
      (await sdk.segments.list('ann')).data.map((s) => s.name),
      ['Friends', 'Gold'],
    );
    assert.deepEqual((await sdk.segments.list('cid')).data, []);
    // The initial sync writes no activity: the segment is new, the customers did not change.
    assert.deepEqual(await segmentTypes('ann'), []);
  });

  it('a customer update that enters the segment writes customer.segment.entered and fires its earning rule once', async () => {
    const rules = await post('/v1/loyalties/Club/earning-rules', [
      {
        event: 'customer.segment.entered',
        segment: { id: gold.id },
        loyalty: { type: 'FIXED', points: 50 },
        source: { banner: 'Gold!' },
      },
      { event: 'customer.segment.entered', segment: { id: ids.friends }, loyalty: { type: 'FIXED', points: 7 } },
    ]);
    assert.equal(rules.status, 200, JSON.stringify(rules.body));
    clock.advance(1000);
    const updated = (await sdk.customers.update({
      source_id: 'bob',
      metadata: { level: 'gold' },
    } as never)) as unknown as { id: string };
    assert.equal(updated.id, ids.bob);
    const activity = (await get('/v1/customers/bob/activity?limit=20')).body.data;
    const entered = activity.find((e: { type: string }) => e.type === 'customer.segment.entered');
    assert.deepEqual(entered.data.data, {
      customer: { id: ids.bob, source_id: 'bob', metadata: { level: 'gold' }, object: 'customer' },
      segment: { id: gold.id, name: 'Gold', object: 'segment' },
    });
    assert.equal(entered.created_at, at(3));
    assert.deepEqual(await segmentTypes('bob'), ['customer.segment.entered']);
    const transactions = await get(`/v1/loyalties/members/${card.code}/transactions`);
    const [row] = transactions.body.data;
    assert.deepEqual(row, {
      id: row.id,
      source_id: null,
      voucher_id: card.id,
      campaign_id: row.campaign_id,
      source: null,
      reason: null,
      type: 'POINTS_ACCRUAL',
      details: {
        balance: {
          type: 'loyalty_card',
          total: 50,
          object: 'balance',
          points: 50,
          balance: 50,
          operation_type: 'AUTOMATIC',
          related_object: { id: card.id, type: 'voucher' },
        },
        earning_rule: { id: rules.body[0].id, source: { banner: 'Gold!' } },
      },
      related_transaction_id: null,
      created_at: at(3),
    });
    assert.deepEqual(accruals(card.id), { n: 1, points: 50 });
    // Another change that keeps bob in the segment: no second entry, no second credit.
    clock.advance(1000);
    await sdk.customers.update({ source_id: 'bob', name: 'Bob' } as never);
    assert.deepEqual(await segmentTypes('bob'), ['customer.segment.entered']);
    assert.deepEqual(accruals(card.id), { n: 1, points: 50 });
  });

  it('an update that leaves the filter writes customer.segment.left; entering again is a new entry', async () => {
    clock.advance(1000);
    await put('/v1/customers/bob', { address: { country: 'FR' } });
    assert.deepEqual(await segmentTypes('bob'), ['customer.segment.left', 'customer.segment.entered']);
    assert.deepEqual(
      (await sdk.segments.list('bob')).data.map((s) => s.name),
      ['Friends'],
    );
    const left = (await get('/v1/customers/bob/activity?type=customer.segment.left')).body.data[0];
    assert.deepEqual(left.data.data.segment, { id: gold.id, name: 'Gold', object: 'segment' });
    clock.advance(1000);
    await put('/v1/customers/bob', { address: { country: 'DE' } });
    assert.deepEqual(await segmentTypes('bob'), [
      'customer.segment.entered',
      'customer.segment.left',
      'customer.segment.entered',
    ]);
    assert.deepEqual(accruals(card.id), { n: 2, points: 100 });
  });

  it("the customers list walks a segment in every order, on the members' copies of the customers' keys", async () => {
    const names = async (query: string) => {
      const res = await get(`/v1/customers?segment_id=${gold.id}&${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return [res.body.total, res.body.customers.map((c: { source_id: string }) => c.source_id)];
    };
    // bob was updated last (its updated_at copy follows every change, by trigger).
    assert.deepEqual(await names('order=-updated_at'), [2, ['bob', 'ann']]);
    assert.deepEqual(await names('order=updated_at'), [2, ['ann', 'bob']]);
    assert.deepEqual(await names('order=-source_id'), [2, ['bob', 'ann']]);
    assert.deepEqual(await names(`updated_at[after]=${at(4)}`), [1, ['bob']]);
    assert.deepEqual(await names('order=created_at&starting_after=2026-05-04T08:59:59.000Z&limit=1'), [2, ['ann']]);
    assert.deepEqual(await names(`order=created_at&starting_after=${T0}`), [2, []]);
    assert.deepEqual(await names('email=nobody@x.io'), [0, []]);
    await put('/v1/customers/ann', { source_id: 'zoe' });
    assert.deepEqual(await names('order=-source_id'), [2, ['zoe', 'bob']]);
    await put('/v1/customers/zoe', { source_id: 'ann' });
  });

  it('a new customer that matches enters at creation', async () => {
    clock.advance(1000);
    const created = await post('/v1/customers', {
      source_id: 'dan',
      metadata: { level: 'gold' },
      address: { country: 'DE' },
    });
    assert.equal(created.status, 200);
    assert.deepEqual(await segmentTypes('dan'), ['customer.segment.entered']);
    assert.deepEqual(
      (await get(`/v1/customers?segment_id=${gold.id}&order=created_at`)).body.customers.map(
        (c: { source_id: string }) => c.source_id,
      ),
      ['ann', 'bob', 'dan'],
    );
  });

  it('for a customer promo does not know, lists the dynamic segments it would be in', async () => {
    clock.advance(1000);
    const created = (await sdk.segments.create({
      name: 'Named eve',
      type: 'auto-update',
      filter: { junction: 'or', source_id: { conditions: { $is: ['eve'] } } } as never,
    })) as unknown as SegmentBody;
    assert.equal(created.initial_sync_status, 'IN_PROGRESS');
    assert.deepEqual(await sdk.segments.list('eve'), {
      object: 'list',
      data_ref: 'data',
      data: [{ id: created.id, name: 'Named eve', object: 'segment' }],
      total: 1,
    });
    assert.deepEqual(await sdk.segments.list('zed'), { object: 'list', data_ref: 'data', data: [], total: 0 });
    await sdk.segments.delete(created.id);
  });

  it('refuses bad input with the documented error body, leaving the database unchanged', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const cases: Array<[unknown, (res: TestResponse) => unknown]> = [
      [{}, (res) => invalid(res, 'name is required; type is required')],
      [{ name: 'x', type: 'dynamic' }, (res) => invalid(res, 'type must be one of static, auto-update, passive')],
      [{ name: 'x', type: 'static' }, (res) => invalid(res, 'customers is required for a static segment')],
      [{ name: 'x', type: 'static', customers: 'ann' }, (res) => invalid(res, 'customers must be an array')],
      [
        { name: 'x', type: 'static', customers: ['ann'], filter: goldFilter },
        (res) => invalid(res, 'filter: only an auto-update or passive segment has a filter'),
      ],
      [{ name: 'x', type: 'auto-update' }, (res) => invalid(res, 'filter is required for an auto-update segment')],
      [
        { name: 'x', type: 'auto-update', filter: goldFilter, customers: ['ann'] },
        (res) => invalid(res, 'customers: only a static segment lists customers'),
      ],
      [
        { name: 'x', type: 'auto-update', filter: { junction: 'and', city: { conditions: { $is: ['Oslo'] } } } },
        (res) =>
          invalid(
            res,
            'filter.city is not a known field; allowed: id, source_id, name, email, phone, description, birthdate, address.city, address.state, address.line_1, address.line_2, address.country, address.postal_code, created_at, updated_at, metadata.<key>',
          ),
      ],
      [{ name: 'x', type: 'static', customers: ['ann', 'nobody'] }, (res) => notFoundBody(res, 'customer', 'nobody')],
      [[1], (res) => invalid(res, 'The body must be a JSON object')],
    ];
    for (const [body, expected] of cases) {
      const res = await post('/v1/segments', body);
      assert.deepEqual(res.body, expected(res), JSON.stringify(body));
    }
    const rule = await post('/v1/loyalties/Club/earning-rules', [
      { event: 'customer.segment.entered', segment: { id: 'seg_nope' }, loyalty: { type: 'FIXED', points: 1 } },
    ]);
    assert.deepEqual(rule.body, notFoundBody(rule, 'segment', 'seg_nope'));
    const missing = await get('/v1/segments/seg_missing');
    assert.deepEqual(missing.body, notFoundBody(missing, 'segment', 'seg_missing'));
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it("a validation rule on customer.segment lets the segment's members redeem and refuses the others", async () => {
    const rule = await post('/v1/validation-rules', {
      name: 'Gold only',
      rules: { '1': { name: 'customer.segment', conditions: { $is: [gold.id] } }, logic: '1' },
      error: { message: 'Gold segment only' },
    });
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    assert.deepEqual(rule.body.rules, {
      '1': { name: 'customer.segment', conditions: { $is: [gold.id] }, property: null, rules: {} },
      logic: '1',
    });
    const voucher = await post('/v1/vouchers/SEG-10', {
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'PERCENT', percent_off: 10 },
      validation_rules: [rule.body.id],
    });
    assert.equal(voucher.status, 200, JSON.stringify(voucher.body));
    const redeem = (who: string) =>
      post('/v1/redemptions', {
        customer: { source_id: who },
        order: { amount: 1000 },
        redeemables: [{ object: 'voucher', id: 'SEG-10' }],
      });
    const member = await redeem('ann');
    assert.deepEqual([member.status, member.body.order.total_discount_amount], [200, 100]);
    const other = await redeem('cid');
    assert.deepEqual(
      other.body,
      errorBody(other, {
        code: 400,
        key: 'customer_rules_violated',
        message: 'customer does not match validation rules',
        details: 'voucher SEG-10: Gold segment only',
        resource_id: other.body.resource_id,
        resource_type: 'redemption',
      }),
    );
  });

  it('orders and redemptions keep memberships too: a redemption whose customer enters the segment passes its rule', async () => {
    clock.advance(1000);
    const order = await post('/v1/orders', {
      customer: { source_id: 'fay', metadata: { level: 'gold' }, address: { country: 'PL' } },
      amount: 100,
    });
    assert.equal(order.status, 200, JSON.stringify(order.body));
    assert.deepEqual(await segmentTypes('fay'), ['customer.segment.entered']);
    const redeemed = await post('/v1/redemptions', {
      customer: { source_id: 'cid', address: { country: 'DE' } },
      order: { amount: 1000 },
      redeemables: [{ object: 'voucher', id: 'SEG-10' }],
    });
    assert.deepEqual([redeemed.status, redeemed.body.order?.total_discount_amount], [200, 100]);
    assert.deepEqual(await segmentTypes('cid'), ['customer.segment.entered']);
  });

  it('bulk updates (job worker threads) keep memberships too, with the activity and the credit', async () => {
    const member = await post('/v1/loyalties/Club/members', { customer: { source_id: 'gus' } });
    assert.equal(member.status, 200, JSON.stringify(member.body));
    const accepted = await post('/v1/customers/bulk/async', [
      { source_id: 'gus', metadata: { level: 'gold' }, address: { country: 'PL' } },
    ]);
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const runner = testRunner(server.deps);
    try {
      assert.equal((await waitForJob(server, accepted.body.async_action_id)).status, 'DONE');
    } finally {
      await runner.stop();
    }
    assert.deepEqual(await segmentTypes('gus'), ['customer.segment.entered']);
    assert.deepEqual(accruals(member.body.id), { n: 1, points: 50 });
  });

  it('segments.delete removes the segment and its memberships; later changes no longer touch it', async () => {
    await sdk.segments.delete(ids.friends!);
    const gone = await get(`/v1/segments/${ids.friends}`);
    assert.deepEqual(gone.body, notFoundBody(gone, 'segment', ids.friends!));
    const again = await server.request('DELETE', `/v1/segments/${ids.friends}`);
    assert.deepEqual(again.body, notFoundBody(again, 'segment', ids.friends!));
    assert.deepEqual((await get(`/v1/customers?segment_id=${ids.friends}`)).body.total, 0);
    assert.deepEqual(
      (await sdk.segments.list('ann')).data.map((s) => s.name),
      ['Gold'],
    );
    const members = sqliteOf(server.deps)
      .prepare('SELECT count(*) AS n FROM segment_members WHERE segment_id = ?')
      .get(ids.friends);
    assert.deepEqual(members, { n: 0 });
  });
});
