import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { internalActor } from '../../src/lib/actor.js';
import { fixedClock } from '../../src/lib/clock.js';
import { creditPoints, debitPoints } from '../../src/modules/ledgers/index.js';
import { findMemberTier } from '../../src/modules/loyalty/tiers/tiers-members.service.js';
import { eventSchemaName } from '../modules/customers/reference.js';
import { assertMatchesReference, assertMatchesSchema } from '../support/openapi.js';
import { startTestServer, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-06-10T09:00:00.000Z');
const at = () => clock.now().toISOString();

interface Member {
  programId: string;
  cardId: string;
  code: string;
  customerId: string;
  tiers: Array<Record<string, unknown> & { id: string }>;
}

/**
 * A member's tier follows its points through the ledger's points seam (issue 11 point 7):
 * joined, upgraded, downgraded, left and prolonged, each event exactly once, the customer's
 * loyalty.campaigns tier and the answer of the reference's "List Member's Loyalty Tiers" kept with it.
 */
describe("a member's loyalty tier", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  async function member(name: string, customer: string, extra: Record<string, unknown> = {}): Promise<Member> {
    const program = await server.request('POST', '/v1/loyalties', {
      body: { name, voucher: { loyalty_card: { points: 0 } }, ...extra },
    });
    assert.equal(program.status, 200, program.text);
    const tiers = await server.request('POST', `/v1/loyalties/${program.body.id}/tiers`, {
      body: [
        { name: 'Bronze', points: { from: 10, to: 99 } },
        {
          name: 'Silver',
          points: { from: 100, to: 499 },
          earning_rules: { ern_x: { type: 'MULTIPLY', multiplier: 2 } },
        },
        { name: 'Gold', points: { from: 500 } },
      ],
    });
    const card = await server.request('POST', `/v1/loyalties/${program.body.id}/members`, {
      body: { customer: { source_id: customer } },
    });
    assert.equal(card.status, 200, card.text);
    return {
      programId: program.body.id,
      cardId: card.body.id,
      code: card.body.code,
      customerId: card.body.holder_id,
      tiers: tiers.body,
    };
  }

  const change = (m: Member, points: number) =>
    server.deps.db.transaction().execute((trx) => {
      const input = { voucherId: m.cardId, amount: Math.abs(points), actor: internalActor(), at: at() };
      return points > 0 ? creditPoints(server.deps, trx, input) : debitPoints(server.deps, trx, input);
    });

  /** The member's tier events so far, oldest first, each checked against the reference's event schema. */
  async function tierEvents(m: Member): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
    const feed = await server.request('GET', `/v1/customers/${m.customerId}/activity?limit=100&order=created_at`);
    const events = (feed.body.data as Array<{ type: string; data: { data: Record<string, unknown> } }>).filter((e) =>
      e.type.startsWith('customer.loyalty.tier.'),
    );
    // A left event names the tier it left and has no tier to go to: the reference's base event requires loyalty_tier_to anyway.
    for (const e of events)
      if (e.type !== 'customer.loyalty.tier.left') assertMatchesSchema(eventSchemaName(e.type), e.data.data);
    return events.map((e) => ({ type: e.type, data: e.data.data }));
  }

  const tierNameOf = (data: Record<string, unknown>, field: string) =>
    (data[field] as { name: string } | undefined)?.name;
  const summary = (events: Array<{ type: string; data: Record<string, unknown> }>) =>
    events.map((e) => [
      e.type.replace('customer.loyalty.tier.', ''),
      tierNameOf(e.data, 'loyalty_tier') ?? tierNameOf(e.data, 'loyalty_tier_from'),
      tierNameOf(e.data, 'loyalty_tier_to') ?? null,
    ]);

  async function customerTier(m: Member, program: string): Promise<unknown> {
    const customer = await server.request('GET', `/v1/customers/${m.customerId}`);
    return customer.body.loyalty.campaigns[program].loyalty_tier;
  }

  it('follows the balance: joins, upgrades, downgrades and leaves, each event once', async () => {
    const m = await member('Balance club', 'bal');
    const [bronze, silver] = m.tiers as [Member['tiers'][number], Member['tiers'][number]];
    const none = await server.request('GET', `/v1/loyalties/members/${m.code}/tiers`);
    assert.deepEqual(none.body, { object: 'list', data_ref: 'data', data: [], total: 0 });

    clock.advance(1000);
    await change(m, 50);
    const joinedAt = at();
    const expiration = {
      customer_id: m.customerId,
      campaign_id: m.programId,
      tier_id: bronze.id,
      start_date: '2024-06-10',
      created_at: joinedAt,
    };
    const res = await server.request('GET', `/v1/loyalties/members/${m.code}/tiers`);
    assert.deepEqual(res.body, { object: 'list', data_ref: 'data', data: [{ ...bronze, expiration }], total: 1 });
    assertMatchesReference('GET', '/v1/loyalties/members/{memberId}/tiers', 200, res.body);
    assert.equal(await customerTier(m, 'Balance club'), bronze.id);

    clock.advance(1000);
    await change(m, 100); // 150: Silver
    clock.advance(1000);
    await change(m, 10); // 160: still Silver, nothing happens
    const upgradedAt = '2024-06-10T09:00:02.000Z';
    const silverNow = { ...silver, expiration: { ...expiration, tier_id: silver.id, updated_at: upgradedAt } };
    assert.deepEqual((await server.request('GET', `/v1/loyalties/members/${m.code}/tiers`)).body.data, [silverNow]);
    assert.deepEqual(
      await server.deps.db.transaction().execute((trx) => findMemberTier(server.deps, trx, m.cardId)),
      silverNow,
    );
    assert.equal(await customerTier(m, 'Balance club'), silver.id);

    clock.advance(1000);
    await change(m, -100); // 60: Bronze
    clock.advance(1000);
    await change(m, -55); // 5: no tier
    assert.deepEqual((await server.request('GET', `/v1/loyalties/members/${m.code}/tiers`)).body, {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
    assert.equal(await customerTier(m, 'Balance club'), undefined); // loyalty.campaigns shows loyalty_tier only when set
    assert.deepEqual(
      await server.deps.db.transaction().execute((trx) => findMemberTier(server.deps, trx, m.cardId)),
      null,
    );

    const events = await tierEvents(m);
    assert.deepEqual(summary(events), [
      ['joined', 'Bronze', 'Bronze'],
      ['upgraded', 'Bronze', 'Silver'],
      ['downgraded', 'Silver', 'Bronze'],
      ['left', 'Bronze', null],
    ]);
    const joined = events[0]?.data as Record<string, unknown>;
    assert.deepEqual(Object.keys(joined), ['customer', 'campaign', 'loyalty_tier', 'loyalty_tier_to', 'created_at']);
    assert.deepEqual(
      [
        joined.loyalty_tier,
        joined.created_at,
        (joined.customer as { id: string }).id,
        (joined.campaign as { id: string }).id,
      ],
      [{ ...bronze, expiration }, joinedAt, m.customerId, m.programId],
    );
  });

  it('qualifies by points earned in the period: keeps a tier until its period ends, then moves or prolongs it', async () => {
    clock.set('2024-06-10T09:00:00.000Z');
    const rules = {
      qualification_type: 'POINTS_IN_PERIOD',
      qualification_period: 'MONTH',
      start_date: { type: 'IMMEDIATE' },
      expiration_date: { type: 'END_OF_PERIOD' },
    };
    const m = await member('Period club', 'per', { loyalty_tiers_expiration: rules });
    const [bronze, silver] = m.tiers as [Member['tiers'][number], Member['tiers'][number]];
    const tierNow = async () =>
      (await server.request('GET', `/v1/loyalties/members/${m.code}/tiers`)).body.data[0] as
        | { id: string; expiration: Record<string, unknown> }
        | undefined;

    await change(m, 150); // Silver until the end of June
    await change(m, -120); // spending does not unearn: still Silver
    assert.deepEqual([(await tierNow())?.id, (await tierNow())?.expiration.expiration_date], [silver.id, '2024-06-30']);

    clock.set('2024-07-05T10:00:00.000Z');
    await change(m, 20); // July has earned 20 and June's Silver has lapsed: Bronze until the end of July
    assert.deepEqual(
      [(await tierNow())?.id, (await tierNow())?.expiration],
      [
        bronze.id,
        {
          customer_id: m.customerId,
          campaign_id: m.programId,
          tier_id: bronze.id,
          start_date: '2024-07-05',
          expiration_date: '2024-07-31',
          created_at: '2024-06-10T09:00:00.000Z',
          updated_at: at(),
        },
      ],
    );
    clock.set('2024-07-06T10:00:00.000Z');
    await change(m, 200); // 220 earned in July: Silver
    clock.set('2024-08-02T10:00:00.000Z');
    await change(m, 150); // August re-qualifies for Silver: prolonged to the end of August, same start
    assert.deepEqual(
      [(await tierNow())?.id, (await tierNow())?.expiration.start_date, (await tierNow())?.expiration.expiration_date],
      [silver.id, '2024-07-06', '2024-08-31'],
    );
    clock.set('2024-08-03T10:00:00.000Z');
    await change(m, 10); // same tier, same end: nothing

    assert.deepEqual(summary(await tierEvents(m)), [
      ['joined', 'Silver', 'Silver'],
      ['downgraded', 'Silver', 'Bronze'],
      ['upgraded', 'Bronze', 'Silver'],
      ['prolonged', 'Silver', 'Silver'],
    ]);
  });

  it('deleting a tier releases its members: no tier on the card or the customer until their next points change', async () => {
    clock.set('2024-09-01T10:00:00.000Z');
    const m = await member('Deleted tier club', 'del');
    const [bronze, silver] = m.tiers as [Member['tiers'][number], Member['tiers'][number]];
    await change(m, 20);
    assert.equal(await customerTier(m, 'Deleted tier club'), bronze.id);
    const del = await server.request('DELETE', `/v1/loyalties/${m.programId}/tiers/${bronze.id}`);
    assert.equal(del.status, 204);
    assert.equal(await customerTier(m, 'Deleted tier club'), undefined);
    assert.deepEqual((await server.request('GET', `/v1/loyalties/members/${m.code}/tiers`)).body, {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
    await change(m, 100);
    assert.equal(await customerTier(m, 'Deleted tier club'), silver.id);
    assert.deepEqual(summary(await tierEvents(m)), [
      ['joined', 'Bronze', 'Bronze'],
      ['joined', 'Silver', 'Silver'],
    ]);
  });

  it('gives a member their tier the moment they hold a card with points: a new card, or a free one made with points', async () => {
    clock.set('2024-10-01T10:00:00.000Z');
    const first = await member('Opening club', 'open-1', { voucher: { loyalty_card: { points: 150 } } });
    const silver = first.tiers[1] as Member['tiers'][number];
    const free = await server.request('POST', `/v1/campaigns/${first.programId}/vouchers`, {
      body: { code: 'OPEN-FREE' },
    });
    assert.equal(free.status, 200, free.text);
    const card = await server.request('POST', `/v1/loyalties/${first.programId}/members`, {
      body: { customer: { source_id: 'open-2' }, voucher: 'OPEN-FREE' },
    });
    assert.equal(card.status, 200, card.text);
    const second: Member = { ...first, cardId: card.body.id, code: 'OPEN-FREE', customerId: card.body.holder_id };
    for (const m of [first, second]) {
      const expiration = {
        customer_id: m.customerId,
        campaign_id: m.programId,
        tier_id: silver.id,
        start_date: '2024-10-01',
        created_at: at(),
      };
      assert.deepEqual((await server.request('GET', `/v1/loyalties/members/${m.code}/tiers`)).body, {
        object: 'list',
        data_ref: 'data',
        data: [{ ...silver, expiration }],
        total: 1,
      });
      assert.equal(await customerTier(m, 'Opening club'), silver.id);
      assert.deepEqual(summary(await tierEvents(m)), [['joined', 'Silver', 'Silver']]);
    }
  });

  it('answers 404 for an unknown card', async () => {
    const res = await server.request('GET', '/v1/loyalties/members/NOPE/tiers');
    assert.equal(res.status, 404);
    assert.deepEqual([res.body.key, res.body.details], ['not_found', 'Cannot find voucher with id NOPE']);
  });
});
