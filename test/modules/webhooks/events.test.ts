import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JobRunner } from '../../../src/jobs/runner.js';
import { loopOptions, startDeliveryLoop } from '../../../src/modules/webhooks/delivery-loop.service.js';
import { SENT_EVENT_TYPES } from '../../../src/modules/webhooks/webhook-events.types.js';
import { discountCampaign } from '../../support/factories.js';
import { testRunner, waitForJob } from '../../support/jobs.js';
import { requestIdOf, startTestServer, type TestResponse, type TestServer } from '../../support/server.js';
import {
  expectedSignature,
  type Receiver,
  sleep,
  startReceiver,
  type WebhookBody,
} from '../../support/webhook-receiver.js';

/**
 * Every event type promo sends (docs/webhooks.md, Events), each caused through the API as a
 * shop causes it, received by a real receiver on port 0 through the real sender: its type, the
 * object it is about (event.entity_id), the request that caused it (event.group_id) and its
 * data, read against what the API answers for the same objects.
 */
const base = '/management/v1/projects/proj_promo/webhooks';

describe('webhook events, one test per type sent', () => {
  // The real time, moved on by hand where a test needs another month (a tier prolonged).
  let shiftMs = 0;
  const clock = { now: () => new Date(Date.now() + shiftMs) };
  let server: TestServer;
  let loop: { stop(): Promise<void> };
  let runner: JobRunner;
  let receiver: Receiver;
  let hook: { id: string; secret: string };
  let seen = 0;

  before(async () => {
    server = await startTestServer({ clock });
    loop = startDeliveryLoop(server.deps, loopOptions({ timeoutMs: 2000, retryBaseMs: 30, pollMs: 20 }));
    runner = testRunner(server.deps);
    receiver = await startReceiver();
    hook = (await post(base, { target_url: receiver.url, events: [...SENT_EVENT_TYPES] })).body;
  });
  after(async () => {
    await runner.stop();
    await loop.stop();
    await receiver.close();
    await server.close();
  });

  async function post(path: string, body: unknown): Promise<TestResponse> {
    const res = await server.request('POST', path, { body });
    assert.ok(res.status === 200 || res.status === 202, `${path}: ${res.status} ${res.text}`);
    return res;
  }

  /** The next `count` deliveries, each signed with the webhook's secret; no others arrive with them. */
  async function nextEvents(count: number): Promise<WebhookBody[]> {
    const got = (await receiver.waitFor(seen + count)).slice(seen);
    await sleep(100);
    assert.equal(receiver.received.length, seen + count, 'no other delivery');
    seen += count;
    for (const g of got) assert.equal(g.headers['x-voucherify-signature'], expectedSignature(hook.secret, g.body));
    return got.map((g) => g.json);
  }

  /** The whole envelope around `data`. */
  function assertEvent(
    got: WebhookBody,
    expected: { type: string; entityId: string; groupId: string; channel?: string; data: unknown },
  ): void {
    const at = got.event.created_at as string;
    assert.match(at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(got, {
      id: got.id,
      project_id: 'proj_promo',
      created_at: at,
      type: expected.type,
      data: expected.data,
      source: { id: hook.id, object: 'webhook', target_url: receiver.url },
      event: {
        id: got.event.id,
        type: expected.type,
        created_at: at,
        entity_id: expected.entityId,
        group_id: expected.groupId,
        event_source: { channel: expected.channel ?? 'API' },
      },
    });
  }

  const customerOf = async (sourceId: string) => {
    const c = (await server.request('GET', `/v1/customers/${sourceId}`)).body;
    return { id: c.id, source_id: sourceId, metadata: {}, object: 'customer' };
  };
  /** A card as the events carry it (its code, campaign and its kind's block), as GET /v1/vouchers/{code} shows it. */
  const eventCard = async (code: string) => {
    const v = (await server.request('GET', `/v1/vouchers/${code}`)).body;
    const kind = v.type === 'GIFT_VOUCHER' ? { gift: v.gift } : { loyalty_card: v.loyalty_card };
    return { id: v.id, code: v.code, type: v.type, campaign_id: v.campaign_id, ...kind };
  };
  const lastTransaction = async (code: string) =>
    (await server.request('GET', `/v1/vouchers/${code}/transactions?limit=1`)).body.data[0];

  it('publication.succeeded for POST /v1/publications', async () => {
    await post('/v1/vouchers/PUB-1', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } });
    const res = await post('/v1/publications', { customer: { source_id: 'pub-customer' }, voucher: 'PUB-1' });
    const [got] = await nextEvents(1);
    assertEvent(got!, {
      type: 'publication.succeeded',
      entityId: res.body.id,
      groupId: requestIdOf(res),
      data: { publication: res.body },
    });
  });

  it('publication.succeeded for a member added by POST /v1/loyalties/{id}/members', async () => {
    const program = (await post('/v1/loyalties', { name: 'Hooked', voucher: { loyalty_card: { points: 0 } } })).body;
    const member = await post(`/v1/loyalties/${program.id}/members`, { customer: { source_id: 'member-1' } });
    const [got] = await nextEvents(1);
    const publications = (await server.request('GET', `/v1/publications?voucher=${member.body.code}`)).body;
    const { customer, ...listed } = publications.publications[0];
    assert.equal(listed.result, 'SUCCESS');
    const publication = got!.data.publication as Record<string, unknown>;
    // The event carries the publication as create-publication answers it: the whole voucher, and
    // the short customer the publications list shows too.
    assertEvent(got!, {
      type: 'publication.succeeded',
      entityId: listed.id,
      groupId: requestIdOf(member),
      data: {
        publication: {
          ...publication,
          id: listed.id,
          customer_id: customer.id,
          voucher: member.body,
          customer,
        },
      },
    });
    // Adding the same member again publishes nothing new.
    await post(`/v1/loyalties/${program.id}/members`, { customer: { source_id: 'member-1' } });
    await sleep(200);
    assert.equal(receiver.received.length, seen);
  });

  it('voucher.loyalty_card.points_added for points added by hand', async () => {
    const program = (await post('/v1/loyalties', { name: 'Points', voucher: { loyalty_card: { points: 0 } } })).body;
    const member = (await post(`/v1/loyalties/${program.id}/members`, { customer: { source_id: 'member-2' } })).body;
    await nextEvents(1); // its publication
    const res = await post(`/v1/loyalties/${program.id}/members/${member.code}/balance`, { points: 40 });
    const [got] = await nextEvents(1);
    const card = await eventCard(member.code);
    assertEvent(got!, {
      type: 'voucher.loyalty_card.points_added',
      entityId: member.id,
      groupId: requestIdOf(res),
      data: {
        customer: await customerOf('member-2'),
        voucher: card,
        balance: res.body,
        transaction: await lastTransaction(member.code),
      },
    });
  });

  it('voucher.gift.balance_added for credits added to a gift card', async () => {
    const gift = (await post('/v1/vouchers/GIFT-HOOK', { type: 'GIFT_VOUCHER', gift: { amount: 1000 } })).body;
    await post('/v1/publications', { customer: { source_id: 'gift-holder' }, voucher: 'GIFT-HOOK' });
    await nextEvents(1); // its publication
    const res = await post('/v1/vouchers/GIFT-HOOK/balance', { amount: 500 });
    const [got] = await nextEvents(1);
    const card = await eventCard('GIFT-HOOK');
    assertEvent(got!, {
      type: 'voucher.gift.balance_added',
      entityId: gift.id,
      groupId: requestIdOf(res),
      data: {
        customer: await customerOf('gift-holder'),
        voucher: card,
        balance: res.body,
        transaction: await lastTransaction('GIFT-HOOK'),
      },
    });
  });

  it('voucher.loyalty_card.points_added, customer.rewarded and customer.rewarded.loyalty_points for points an earning rule gave', async () => {
    const program = (await post('/v1/loyalties', { name: 'Earn', voucher: { loyalty_card: { points: 0 } } })).body;
    const member = (await post(`/v1/loyalties/${program.id}/members`, { customer: { source_id: 'earner' } })).body;
    await post(`/v1/loyalties/${program.id}/earning-rules`, [
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 10 } },
    ]);
    await nextEvents(1); // its publication
    const order = await post('/v1/orders', {
      source_id: 'hook-order',
      status: 'PAID',
      amount: 5000,
      customer: { source_id: 'earner' },
    });
    const got = await nextEvents(3);
    const card = await eventCard(member.code);
    const customer = await customerOf('earner');
    const transaction = await lastTransaction(member.code);
    assert.equal(transaction.type, 'POINTS_ACCRUAL');
    const data = {
      customer,
      voucher: card,
      balance: {
        points: 10,
        total: 10,
        balance: 10,
        type: 'loyalty_card',
        object: 'balance',
        related_object: { type: 'voucher', id: card.id },
        operation_type: 'AUTOMATIC',
      },
      transaction,
    };
    const groupId = requestIdOf(order);
    assertEvent(got[0]!, { type: 'voucher.loyalty_card.points_added', entityId: card.id, groupId, data });
    assertEvent(got[1]!, { type: 'customer.rewarded', entityId: customer.id, groupId, data });
    assertEvent(got[2]!, { type: 'customer.rewarded.loyalty_points', entityId: customer.id, groupId, data });
  });

  it('redemption.rollback.succeeded for a rollback', async () => {
    await post('/v1/vouchers/ROLL-HOOK', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } });
    const redeemed = await post('/v1/redemptions', {
      order: { amount: 1000 },
      redeemables: [{ object: 'voucher', id: 'ROLL-HOOK' }],
    });
    const redemption = redeemed.body.redemptions[0];
    const [succeeded] = await nextEvents(1);
    assert.deepEqual([succeeded!.type, succeeded!.event.entity_id], ['redemption.succeeded', redemption.id]);
    const rolledBack = await post(`/v1/redemptions/${redemption.id}/rollback`, {});
    const [got] = await nextEvents(1);
    const rollback = got!.data.redemption_rollback as { voucher: unknown };
    assertEvent(got!, {
      type: 'redemption.rollback.succeeded',
      entityId: rolledBack.body.id,
      groupId: requestIdOf(rolledBack),
      data: {
        redemption_rollback: (await server.request('GET', `/v1/redemptions/${rolledBack.body.id}`)).body,
        redemption: (await server.request('GET', `/v1/redemptions/${redemption.id}`)).body,
        voucher: rollback.voucher,
      },
    });
  });

  it('campaign.vouchers.generation.completed at the end of a generation job', async () => {
    const campaign = (await post('/v1/campaigns', discountCampaign('Generated'))).body;
    const res = await post(`/v1/campaigns/${campaign.id}/vouchers?vouchers_count=3`, {});
    const job = await waitForJob(server, res.body.async_action_id);
    assert.equal(job.status, 'DONE');
    const [got] = await nextEvents(1);
    assertEvent(got!, {
      type: 'campaign.vouchers.generation.completed',
      entityId: campaign.id,
      groupId: job.id,
      channel: 'INTERNAL',
      data: {
        campaign: { id: campaign.id, object: 'campaign' },
        async_action: { id: job.id, object: 'async_action' },
        vouchers_count: 3,
      },
    });
  });

  it('campaign.vouchers.generation.failed at the end of a generation job that fails', async () => {
    await runner.stop(); // the job waits until its campaign is gone
    const campaign = (await post('/v1/campaigns', discountCampaign('Generation failed'))).body;
    const res = await post(`/v1/campaigns/${campaign.id}/vouchers?vouchers_count=3`, {});
    const deleted = await server.request('DELETE', `/v1/campaigns/${campaign.id}`);
    assert.equal(deleted.status, 202, deleted.text); // the campaign is gone at once, its vouchers by a job
    runner = testRunner(server.deps);
    const job = await waitForJob(server, res.body.async_action_id);
    assert.deepEqual(
      [job.status, job.result.message],
      ['FAILED', `Campaign ${campaign.id} was deleted after 0 of 3 vouchers were generated.`],
    );
    const [got] = await nextEvents(1);
    assertEvent(got!, {
      type: 'campaign.vouchers.generation.failed',
      entityId: campaign.id,
      groupId: job.id,
      channel: 'INTERNAL',
      data: {
        campaign: { id: campaign.id, object: 'campaign' },
        async_action: { id: job.id, object: 'async_action' },
        vouchers_count: 0,
      },
    });
  });

  /** A tier program's member: Bronze from 10 points, Silver from 100; its publication already received. */
  async function tierMember(name: string, sourceId: string, extra: Record<string, unknown> = {}) {
    const body = { name, voucher: { loyalty_card: { points: 0 } }, ...extra };
    const program = (await post('/v1/loyalties', body)).body;
    await post(`/v1/loyalties/${program.id}/tiers`, [
      { name: 'Bronze', points: { from: 10, to: 99 } },
      { name: 'Silver', points: { from: 100, to: 499 } },
    ]);
    const member = (await post(`/v1/loyalties/${program.id}/members`, { customer: { source_id: sourceId } })).body;
    await nextEvents(1); // its publication
    const balance = (points: number) => post(`/v1/loyalties/${program.id}/members/${member.code}/balance`, { points });
    return { program, member, balance };
  }

  /**
   * The tier event a points change caused (with its points_added when points were added),
   * whole, against the API's answers: its data is the customer's activity of the same type (the
   * newest), with the customer as GET /v1/customers shows it and the tiers as given.
   */
  async function assertTierEvent(
    res: TestResponse,
    type: string,
    sourceId: string,
    tiers: Record<string, unknown>,
  ): Promise<void> {
    const added = res.body.points > 0 ? ['voucher.loyalty_card.points_added'] : [];
    const got = await nextEvents(1 + added.length);
    assert.deepEqual(got.map((e) => e.type).sort(), [type, ...added].sort());
    const customer = await customerOf(sourceId);
    const feed = await server.request('GET', `/v1/customers/${customer.id}/activity?limit=1&type=${type}`);
    const data = feed.body.data[0].data.data as Record<string, unknown>;
    assert.deepEqual(data, { customer, campaign: data.campaign, ...tiers, created_at: data.created_at });
    assert.deepEqual(Object.keys(data), ['customer', 'campaign', ...Object.keys(tiers), 'created_at']);
    assertEvent(got.find((e) => e.type === type)!, { type, entityId: customer.id, groupId: requestIdOf(res), data });
  }
  /** The member's tier now, as GET /v1/loyalties/members/{memberId}/tiers answers it, by name. */
  const memberTier = async (code: string, name: string) => {
    const tier = (await server.request('GET', `/v1/loyalties/members/${code}/tiers`)).body.data[0];
    assert.equal(tier.name, name);
    return tier;
  };

  it('customer.loyalty.tier.joined when points bring a member into a tier', async () => {
    const { member, balance } = await tierMember('Tiers joined', 'tier-joiner');
    const res = await balance(50);
    const bronze = await memberTier(member.code, 'Bronze');
    await assertTierEvent(res, 'customer.loyalty.tier.joined', 'tier-joiner', {
      loyalty_tier: bronze,
      loyalty_tier_to: bronze,
    });
  });

  const moves = [
    {
      move: 'upgraded',
      why: 'points bring a member into a higher tier',
      points: [50, 100],
      tiers: ['Bronze', 'Silver'],
    },
    // A removal sends no points event.
    {
      move: 'downgraded',
      why: 'points removed drop a member to a lower tier',
      points: [150, -100],
      tiers: ['Silver', 'Bronze'],
    },
  ] as const;
  for (const { move, why, points, tiers } of moves) {
    it(`customer.loyalty.tier.${move} when ${why}`, async () => {
      const sourceId = `tier-${move}`;
      const { member, balance } = await tierMember(`Tiers ${move}`, sourceId);
      await balance(points[0]);
      await nextEvents(2); // points added, the first tier joined
      const from = await memberTier(member.code, tiers[0]);
      const res = await balance(points[1]);
      const to = await memberTier(member.code, tiers[1]);
      await assertTierEvent(res, `customer.loyalty.tier.${move}`, sourceId, {
        loyalty_tier_from: from,
        loyalty_tier_to: to,
      });
    });
  }

  it('customer.loyalty.tier.left when points removed drop a member below every tier', async () => {
    const { member, balance } = await tierMember('Tiers left', 'tier-leaver');
    await balance(50);
    await nextEvents(2); // points added, Bronze joined
    const bronze = await memberTier(member.code, 'Bronze');
    const res = await balance(-45);
    assert.equal((await server.request('GET', `/v1/loyalties/members/${member.code}/tiers`)).body.total, 0);
    await assertTierEvent(res, 'customer.loyalty.tier.left', 'tier-leaver', { loyalty_tier: bronze });
  });

  it('customer.loyalty.tier.prolonged when a member qualifies again for its tier in the next period', async () => {
    const loyalty_tiers_expiration = {
      qualification_type: 'POINTS_IN_PERIOD',
      qualification_period: 'MONTH',
      start_date: { type: 'IMMEDIATE' },
      expiration_date: { type: 'END_OF_PERIOD' },
    };
    const { member, balance } = await tierMember('Tiers prolonged', 'tier-prolonger', { loyalty_tiers_expiration });
    await balance(150);
    await nextEvents(2); // points added, Silver joined until the end of this month
    shiftMs += 32 * 86_400_000; // next month: Silver has lapsed, and earning 150 again keeps it
    const res = await balance(150);
    const silver = await memberTier(member.code, 'Silver');
    await assertTierEvent(res, 'customer.loyalty.tier.prolonged', 'tier-prolonger', {
      loyalty_tier: silver,
      loyalty_tier_to: silver,
    });
  });
});
