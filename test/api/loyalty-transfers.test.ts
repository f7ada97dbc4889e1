import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { dbFingerprint } from '../support/db.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { beyondSdkTypes, serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2025-06-01T12:00:00.000Z';
/** A loyalty program as created, with the field the tests read. */
interface Program {
  id: string;
  [field: string]: unknown;
}

/** A loyalty card as the API answers it: the fields the tests read, and the rest. */
interface Card {
  id: string;
  code: string;
  loyalty_card: { points: number; balance: number };
  [field: string]: unknown;
}

/** A card transaction as listed: the fields the tests read, and the rest. */
interface Transaction {
  id: string;
  related_transaction_id?: string | null;
  source: unknown;
  details: { balance: { total: number; balance: number } };
  [field: string]: unknown;
}

/** A page of card transactions (the tests read pages that have at least one). */
interface TransactionPage {
  data: [Transaction, ...Transaction[]];
}

/** An error as the SDK rejects with it: the API's error body. */
interface ApiError {
  code: number;
  key: string;
  details: string;
}

/**
 * POST /v1/loyalties/{campaignId}/members/{memberId}/transfers (the SDK's
 * loyalties.transferPoints): source cards of any program give points to the path's card, all
 * or nothing, each move a POINTS_TRANSFER_OUT / POINTS_TRANSFER_IN pair naming each other.
 */
describe('points transfers through @voucherify/sdk', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let stars: Program;
  let ann: Card;
  let bob: Card;
  let cat: Card;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    sdk = serverSideClient(server);
    stars = (await sdk.loyalties.create(
      beyondSdkTypes({
        name: 'TR Stars',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
      }),
    )) as unknown as Program;
    const moons = (await sdk.loyalties.create(
      beyondSdkTypes({
        name: 'TR Moons',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
      }),
    )) as unknown as Program;
    ann = (await sdk.loyalties.createMember(stars.id, { customer: { source_id: 'tr-ann' } })) as unknown as Card;
    bob = (await sdk.loyalties.createMember(moons.id, { customer: { source_id: 'tr-bob' } })) as unknown as Card;
    cat = (await sdk.loyalties.createMember(stars.id, { customer: { source_id: 'tr-cat' } })) as unknown as Card;
    await sdk.loyalties.addPoints(stars.id, ann.code, beyondSdkTypes({ points: 100 }));
    await sdk.loyalties.addPoints(moons.id, bob.code, beyondSdkTypes({ points: 50 }));
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });
  const balance = async (code: string) =>
    (await sdk.loyalties.getMember(null as unknown as string, code)).loyalty_card?.balance;
  const newest = async (code: string) =>
    (
      (await sdk.loyalties.listCardTransactions(
        code,
        null as unknown as string,
        beyondSdkTypes({ limit: 1 }),
      )) as unknown as TransactionPage
    ).data[0];

  it("moves points from cards of two programs to one member, answering the member's card", async () => {
    const answer = (await sdk.loyalties.transferPoints(
      stars.id,
      cat.code,
      beyondSdkTypes([
        { code: ann.code, points: 30, reason: 'Family pool', source_id: 'tr-1' },
        { code: bob.code, points: 20 },
      ]),
    )) as unknown as Card;
    assert.deepEqual(answer, await sdk.loyalties.getMember(stars.id, cat.code));
    assert.deepEqual([answer.code, answer.loyalty_card.points, answer.loyalty_card.balance], [cat.code, 50, 50]);
    // The answer is the card as get-member answers it, checked against that operation's schema: the
    // transfer's own types `active` as a string, unlike every other voucher answer of the reference.
    assertMatchesReference('GET', '/v1/loyalties/members/{memberId}', 200, withoutNulls(answer));
    assert.deepEqual([await balance(ann.code), await balance(bob.code)], [70, 30]);

    const out = await newest(ann.code);
    const into = (
      (await sdk.loyalties.listCardTransactions(
        cat.code,
        stars.id,
        beyondSdkTypes({ limit: 10 }),
      )) as unknown as TransactionPage
    ).data.find((t) => t.related_transaction_id === out.id)!;
    assert.deepEqual(out, {
      id: out.id,
      source_id: 'tr-1',
      voucher_id: ann.id,
      campaign_id: stars.id,
      source: out.source,
      reason: 'Family pool',
      type: 'POINTS_TRANSFER_OUT',
      details: {
        balance: {
          type: 'loyalty_card',
          total: 100,
          object: 'balance',
          points: -30,
          balance: 70,
          operation_type: 'MANUAL',
          related_object: { id: ann.id, type: 'voucher' },
        },
        destination_voucher: {
          id: cat.id,
          code: cat.code,
          type: 'LOYALTY_CARD',
          campaign_id: stars.id,
          holder_id: cat.holder_id,
          object: 'voucher',
        },
      },
      related_transaction_id: into.id,
      created_at: NOW,
    });
    assert.deepEqual(into, {
      id: into.id,
      source_id: null,
      voucher_id: cat.id,
      campaign_id: stars.id,
      source: out.source,
      reason: 'Family pool',
      type: 'POINTS_TRANSFER_IN',
      details: {
        balance: {
          type: 'loyalty_card',
          total: into.details.balance.total,
          object: 'balance',
          points: 30,
          balance: into.details.balance.balance,
          operation_type: 'MANUAL',
          related_object: { id: cat.id, type: 'voucher' },
        },
        source_voucher: {
          id: ann.id,
          code: ann.code,
          type: 'LOYALTY_CARD',
          campaign_id: stars.id,
          holder_id: ann.holder_id,
          object: 'voucher',
        },
      },
      related_transaction_id: out.id,
      created_at: NOW,
    });
    assertMatchesReference('GET', '/v1/loyalties/members/{memberId}/transactions', 200, {
      object: 'list',
      data_ref: 'data',
      data: [out, into],
      has_more: false,
    });
    // The holders' loyalty summaries move with the cards.
    const customer = await sdk.customers.get('tr-ann');
    assert.deepEqual(customer.loyalty, {
      points: 70,
      referred_customers: 0,
      campaigns: { 'TR Stars': { points: 70, referred_customers: 0 } },
    });
  });

  it('does not move points twice for a source_id the source card has seen', async () => {
    const again = (await sdk.loyalties.transferPoints(
      stars.id,
      cat.code,
      beyondSdkTypes([{ code: ann.code, points: 30, source_id: 'tr-1' }]),
    )) as unknown as Card;
    assert.deepEqual([again.loyalty_card.balance, await balance(ann.code)], [50, 70]);
  });

  it('refuses all of a transfer when one part fails, and bad bodies, changing nothing', async () => {
    const free = (await sdk.campaigns.addVoucher(stars.id, beyondSdkTypes({}))) as unknown as Card;
    await sdk.vouchers.create(beyondSdkTypes({ code: 'TR-GIFT', type: 'GIFT_VOUCHER', gift: { amount: 100 } }));
    const before = dbFingerprint(sqliteOf(server.deps));
    const refusals: Array<[string, string, unknown[], number, string, string]> = [
      [
        stars.id,
        cat.code,
        [
          { code: ann.code, points: 10 },
          { code: bob.code, points: 31 },
        ],
        400,
        'loyalty_card_points_exceeded',
        `Cannot take 31 points from ${bob.code}: its balance is 30`,
      ],
      [
        stars.id,
        bob.code,
        [{ code: ann.code, points: 1 }],
        404,
        'not_found',
        `Cannot find voucher with id ${bob.code}`,
      ],
      [stars.id, cat.code, [{ code: 'TR-NONE', points: 1 }], 404, 'not_found', 'Cannot find voucher with id TR-NONE'],
      [
        stars.id,
        cat.code,
        [{ code: cat.code, points: 1 }],
        400,
        'invalid_payload',
        `${cat.code}: a card cannot transfer points to itself`,
      ],
      [
        stars.id,
        cat.code,
        [{ code: free.code, points: 1 }],
        400,
        'invalid_voucher',
        `Loyalty card ${free.code} has no holder: points move only between cards given to customers`,
      ],
      [
        stars.id,
        free.code,
        [{ code: ann.code, points: 1 }],
        400,
        'invalid_voucher',
        `Loyalty card ${free.code} has no holder: points move only between cards given to customers`,
      ],
      [
        stars.id,
        cat.code,
        [{ code: 'TR-GIFT', points: 1 }],
        400,
        'invalid_voucher',
        'TR-GIFT is a GIFT_VOUCHER: points move only between loyalty cards',
      ],
      [stars.id, cat.code, [], 400, 'invalid_payload', 'The body must hold at least one transfer'],
      [stars.id, cat.code, [{ code: ann.code, points: 0 }], 400, 'invalid_payload', '[0].points must be at least 1'],
    ];
    for (const [campaign, code, body, status, key, details] of refusals) {
      await assert.rejects(sdk.loyalties.transferPoints(campaign, code, beyondSdkTypes(body)), (error: ApiError) => {
        assert.deepEqual([error.code, error.key, error.details], [status, key, details], JSON.stringify(body));
        return true;
      });
    }
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });
});
