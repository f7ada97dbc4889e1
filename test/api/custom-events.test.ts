import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { dbFingerprint } from '../support/db.js';
import { assertMatchesReference, assertMatchesSchema, withoutNulls } from '../support/openapi.js';
import { clientSideClient, serverSideClient, type ClientSideClient, type ServerSideClient } from '../support/sdk.js';
import { errorBody, notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const T0 = '2026-03-02T10:00:00.000Z';

/**
 * Custom events through the official SDK (`events.create`, client-side `track`): the answer,
 * the customer's activity, and earning on CUSTOM_EVENT rules through the one points ledger.
 * Alice holds a card of Club and one of Stars, Bob one of Club.
 */
describe('custom events (POST /v1/events, /client/v1/events)', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let browser: ClientSideClient;
  const clock = fixedClock(T0);
  const cards: Record<string, { id: string; code: string; holder_id: string }> = {};
  let welcomeRule: { id: string };
  let readRule: { id: string };

  const post = (path: string, body?: unknown) => server.request('POST', path, { body });
  const get = (path: string) => server.request('GET', path);
  const points = async (who: string) =>
    (await get(`/v1/loyalties/members/${cards[who]!.code}`)).body.loyalty_card.points;
  const invalid = (res: TestResponse, details: string) =>
    errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details });

  before(async () => {
    server = await startTestServer({ clock });
    sdk = serverSideClient(server);
    browser = clientSideClient(server);
    for (const name of ['Club', 'Stars'])
      await post('/v1/loyalties', { name, voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    for (const [who, program, customer] of [
      ['alice', 'Club', 'alice'],
      ['aliceStars', 'Stars', 'alice'],
      ['bob', 'Club', 'bob'],
    ] as const) {
      const member = await post(`/v1/loyalties/${program}/members`, { customer: { source_id: customer } });
      assert.equal(member.status, 200, JSON.stringify(member.body));
      cards[who] = { id: member.body.id, code: member.body.code, holder_id: member.body.holder_id };
    }
    const club = await post('/v1/loyalties/Club/earning-rules', [
      {
        event: 'signed_up',
        custom_event: { schema_id: 'ms_signup' },
        loyalty: { type: 'FIXED', points: 25 },
        source: { banner: 'Welcome' },
      },
      {
        event: 'page_read',
        custom_event: { schema_id: 'ms_read' },
        loyalty: {
          type: 'PROPORTIONAL',
          calculation_type: 'CUSTOM_EVENT_METADATA',
          custom_event: { metadata: { every: 3, points: 2, property: 'pages' } },
        },
      },
      {
        event: 'signed_up',
        custom_event: { schema_id: 'ms_signup' },
        loyalty: { type: 'FIXED', points: 1000 },
        active: false,
      },
      {
        event: 'signed_up',
        custom_event: { schema_id: 'ms_signup' },
        loyalty: { type: 'FIXED', points: 2000 },
        start_date: '2026-04-01T00:00:00.000Z',
      },
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 3000 } },
    ]);
    assert.equal(club.status, 200, JSON.stringify(club.body));
    [welcomeRule, readRule] = club.body;
    const stars = await post('/v1/loyalties/Stars/earning-rules', [
      { event: 'signed_up', custom_event: { schema_id: 'ms_signup' }, loyalty: { type: 'FIXED', points: 5 } },
    ]);
    assert.equal(stars.status, 200, JSON.stringify(stars.body));
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('events.create answers the event, records it in the activity, and earns on every card of the customer', async () => {
    clock.advance(1000);
    const answer = await sdk.events.create('signed_up', {
      customer: { source_id: 'alice' },
      metadata: { plan: 'pro' },
    } as never);
    const alice = { id: cards.alice!.holder_id, source_id: 'alice', metadata: {}, object: 'customer' };
    assert.deepEqual(answer, { object: 'event', type: 'signed_up', customer: alice, referral: null, loyalty: null });
    assertMatchesReference('POST', '/v1/events', 200, answer as never);
    assert.deepEqual([await points('alice'), await points('aliceStars'), await points('bob')], [25, 5, 0]);

    const activity = await get(`/v1/customers/alice/activity?limit=10`);
    assert.deepEqual(
      activity.body.data.map((e: { type: string }) => e.type),
      [
        'customer.voucher.loyalty_card.points_added',
        'customer.rewarded.loyalty_points',
        'customer.voucher.loyalty_card.points_added',
        'customer.rewarded.loyalty_points',
        'customer.custom_event',
        'customer.publication.succeeded',
        'customer.publication.succeeded',
        'customer.created',
      ],
    );
    const event = activity.body.data.find((e: { type: string }) => e.type === 'customer.custom_event');
    const customEvent = event.data.data.event;
    assert.match(customEvent.id, /^event_[0-9A-Za-z]{16}$/);
    assert.deepEqual(event.data, {
      data: {
        event: {
          id: customEvent.id,
          object: 'event',
          type: 'signed_up',
          customer: alice,
          referral: {},
          loyalty: {},
          metadata: { plan: 'pro' },
          created_at: '2026-03-02T10:00:01.000Z',
        },
        event_schema: { name: 'signed_up' },
        customer: alice,
        referral: null,
        loyalty: null,
      },
      event_source: { channel: 'API', api_key: { name: server.serverKey.name, app_id: server.serverKey.app_id } },
    });
    assert.equal(event.created_at, '2026-03-02T10:00:01.000Z');
    assertMatchesSchema('EventCustomerCustomEvent', event.data.data);

    const transactions = await get(`/v1/loyalties/members/${cards.alice!.code}/transactions`);
    assert.equal(transactions.status, 200, JSON.stringify(transactions.body));
    const [row] = transactions.body.data;
    assert.deepEqual(row, {
      id: row.id,
      source_id: null,
      voucher_id: cards.alice!.id,
      campaign_id: row.campaign_id,
      source: null,
      reason: null,
      type: 'POINTS_ACCRUAL',
      details: {
        balance: {
          type: 'loyalty_card',
          total: 25,
          object: 'balance',
          points: 25,
          balance: 25,
          operation_type: 'AUTOMATIC',
          related_object: { id: cards.alice!.id, type: 'voucher' },
        },
        earning_rule: { id: welcomeRule.id, source: { banner: 'Welcome' } },
        custom_event: { id: customEvent.id, type: 'signed_up' },
        event_schema: { id: 'ms_signup', name: 'signed_up' },
      },
      related_transaction_id: null,
      created_at: '2026-03-02T10:00:01.000Z',
    });
    assert.equal(transactions.body.data.length, 1);
  });

  it('client-side track with loyalty.code earns on that card only, CUSTOM_EVENT_METADATA from the event (7 pages, 2 per 3 -> 4)', async () => {
    clock.advance(1000);
    const answer = await browser.track('page_read', { source_id: 'alice' }, { pages: 7 }, undefined, {
      code: cards.alice!.code,
    });
    const alice = { id: cards.alice!.holder_id, source_id: 'alice', metadata: {}, object: 'customer' };
    assert.deepEqual(answer, { object: 'event', type: 'page_read', customer: alice, referral: null, loyalty: null });
    assertMatchesReference('POST', '/client/v1/events', 200, answer as never);
    assert.deepEqual([await points('alice'), await points('aliceStars')], [29, 5]);
    const latest = (await get(`/v1/customers/alice/activity?type=customer.custom_event&limit=1`)).body.data[0];
    assert.deepEqual(latest.data.event_source, {
      channel: 'CLIENT_API',
      api_key: { name: server.clientKey.name, app_id: server.clientKey.app_id },
    });
    assert.deepEqual(latest.data.data.event.loyalty, { code: cards.alice!.code });
    const card = (await get(`/v1/vouchers/${cards.alice!.code}`)).body;
    const club = (await get('/v1/campaigns/Club')).body;
    // The card as it was when the event came, before its own points.
    assert.deepEqual(latest.data.data.loyalty, {
      voucher: {
        id: card.id,
        code: card.code,
        campaign: 'Club',
        campaign_id: club.id,
        type: 'LOYALTY_CARD',
        loyalty_card: { ...card.loyalty_card, points: 25, balance: 25 },
        active: true,
        metadata: {},
        is_referral_code: false,
        holder_id: alice.id,
        created_at: card.created_at,
        updated_at: '2026-03-02T10:00:01.000Z',
        object: 'voucher',
      },
      campaign: latest.data.data.loyalty.campaign,
    });
    assert.deepEqual([latest.data.data.loyalty.campaign.id, latest.data.data.loyalty.campaign.name], [club.id, 'Club']);
    const { loyalty } = latest.data.data;
    assertMatchesSchema('EventCustomerCustomEvent', {
      ...latest.data.data,
      loyalty: { ...loyalty, voucher: withoutNulls(loyalty.voucher) },
    });
    // Attributed to the Club card, the event is in that member's activity too; alice's Stars activity has only signed_up's points.
    const member = (await get(`/v1/loyalties/members/${cards.alice!.code}/activity?limit=1`)).body.data[0];
    assert.deepEqual(
      [member.type, member.id],
      [
        'customer.voucher.loyalty_card.points_added',
        (await get(`/v1/customers/alice/activity?limit=1`)).body.data[0].id,
      ],
    );
    const clubEvents = (await get(`/v1/customers/alice/activity?type=customer.custom_event&campaign_id=${club.id}`))
      .body.data;
    assert.deepEqual(
      clubEvents.map((e: { id: string }) => e.id),
      [latest.id],
    );
    const [row] = (await get(`/v1/loyalties/members/${cards.alice!.code}/transactions`)).body.data;
    assert.deepEqual(
      [
        row.type,
        row.details.balance.points,
        row.details.earning_rule.id,
        row.details.custom_event,
        row.details.event_schema,
      ],
      [
        'POINTS_ACCRUAL',
        4,
        readRule.id,
        { id: latest.data.data.event.id, type: 'page_read' },
        { id: 'ms_read', name: 'page_read' },
      ],
    );
  });

  it('an event nobody earns on is still recorded; an unknown source_id becomes a new customer', async () => {
    clock.advance(1000);
    const answer = await sdk.events.create('newsletter_opened', {
      customer: { source_id: 'dave', name: 'Dave' },
    } as never);
    const dave = (answer as unknown as { customer: { id: string } }).customer;
    assert.deepEqual(answer, {
      object: 'event',
      type: 'newsletter_opened',
      customer: { id: dave.id, name: 'Dave', source_id: 'dave', metadata: {}, object: 'customer' },
      referral: null,
      loyalty: null,
    });
    const activity = await sdk.customers.listActivity('dave', {} as never);
    assert.deepEqual(
      activity.data.map((e) => e.type),
      ['customer.custom_event', 'customer.created'],
    );
    assert.deepEqual([await points('alice'), await points('bob')], [29, 0]);
  });

  it('refuses bad input, reserved names, unknown customers and cards not held, and leaves the database as it was', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const cases: Array<[unknown, (res: TestResponse) => unknown]> = [
      [{ customer: { source_id: 'alice' } }, (res) => invalid(res, 'event is a required field')],
      [{ event: '', customer: { source_id: 'alice' } }, (res) => invalid(res, 'event is a required field')],
      [
        { event: 'x'.repeat(301), customer: { source_id: 'alice' } },
        (res) => invalid(res, 'event must be at most 300 characters'),
      ],
      [
        { event: 'order.paid', customer: { source_id: 'alice' } },
        (res) => invalid(res, 'event order.paid is the name of a built-in event, not a custom one'),
      ],
      [{ event: 'signed_up' }, (res) => invalid(res, 'customer is a required field')],
      [
        { event: 'signed_up', customer: { name: 'Nobody' } },
        (res) => invalid(res, 'customer must have an id or a source_id'),
      ],
      [
        { event: 'signed_up', customer: { source_id: 'alice' }, metadata: [1] },
        (res) => invalid(res, 'metadata must be an object'),
      ],
      [
        { event: 'signed_up', customer: { source_id: 'alice' }, loyalty: 'card' },
        (res) => invalid(res, 'loyalty must be an object'),
      ],
      [[{ event: 'signed_up' }], (res) => invalid(res, 'The body must be a JSON object')],
      [{ event: 'signed_up', customer: { id: 'cust_nope' } }, (res) => notFoundBody(res, 'customer', 'cust_nope')],
      [
        { event: 'signed_up', customer: { source_id: 'bob' }, loyalty: { code: cards.aliceStars!.code } },
        (res) => notFoundBody(res, 'voucher', cards.aliceStars!.code),
      ],
      [
        { event: 'signed_up', customer: { source_id: 'erin' }, loyalty: { code: 'NO-SUCH-CARD' } },
        (res) => notFoundBody(res, 'voucher', 'NO-SUCH-CARD'),
      ],
    ];
    for (const [body, expected] of cases) {
      for (const [path, auth] of [
        ['/v1/events', 'server'],
        ['/client/v1/events', 'client'],
      ] as const) {
        const res = await server.request('POST', path, { body, auth });
        assert.deepEqual(res.body, expected(res), `${path} ${JSON.stringify(body).slice(0, 80)}`);
      }
    }
    await assert.rejects(
      sdk.events.create('signed_up', { customer: { id: 'cust_nope' } } as never),
      (error: Record<string, unknown>) => {
        assert.deepEqual(
          [error.code, error.key, error.details],
          [404, 'not_found', 'Cannot find customer with id cust_nope'],
        );
        return true;
      },
    );
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it('concurrent events each earn once: 20 at once give Bob exactly 20 ledger rows of 25', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => sdk.events.create('signed_up', { customer: { source_id: 'bob' } } as never)),
    );
    assert.equal(answers.length, 20);
    assert.equal(await points('bob'), 500);
    const rows = sqliteOf(server.deps)
      .prepare(
        "SELECT count(*) AS n, sum(delta) AS points FROM ledger_entries WHERE voucher_id = ? AND type = 'POINTS_ACCRUAL'",
      )
      .get(cards.bob!.id);
    assert.deepEqual(rows, { n: 20, points: 500 });
    const events = await get('/v1/customers/bob/activity?type=customer.custom_event&limit=100');
    assert.equal(events.body.data.length, 20);
  });

  it("opens to the scopes events and client_events, not to each other's keys", async () => {
    const serverOnClient = await server.request('POST', '/client/v1/events', {
      body: { event: 'signed_up', customer: { source_id: 'bob' } },
      auth: 'server',
    });
    assert.deepEqual([serverOnClient.status, serverOnClient.body.key], [401, 'unauthorized']);
    const clientOnServer = await server.request('POST', '/v1/events', {
      body: { event: 'signed_up', customer: { source_id: 'bob' } },
      auth: 'client',
    });
    assert.deepEqual([clientOnServer.status, clientOnServer.body.key], [401, 'unauthorized']);
    assert.equal(await points('bob'), 500);
  });
});
