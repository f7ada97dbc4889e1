import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Deps } from '../../../src/app/deps.js';
import { internalActor, type Actor } from '../../../src/lib/actor.js';
import { fixedClock } from '../../../src/lib/clock.js';
import { AppError } from '../../../src/lib/errors.js';
import { createCustomer, deleteCustomer } from '../../../src/modules/customers/customers.service.js';
import {
  defaultCategoryOf,
  FEED_ONLY_EVENT_TYPES,
  FILTERABLE_EVENT_TYPES,
  isFilterableEventType,
  type CustomerEventType,
} from '../../../src/modules/events/events.types.js';
import { activityQuerySchema } from '../../../src/modules/events/events.schemas.js';
import { parse } from '../../../src/lib/validate.js';
import { emit, listCustomerEvents } from '../../../src/modules/events/events.service.js';
import { openTestDeps } from '../../support/engine.js';

const T0 = '2024-07-01T00:00:00.000Z';
const apiActor: Actor = {
  channel: 'API',
  api_key: { name: 'shop', app_id: 'app-1' },
  request_id: 'v-000000000000000001',
};

describe('events: emit and the feed', () => {
  let deps: Deps;
  before(async () => {
    deps = await openTestDeps({ clock: fixedClock(T0) });
  });
  after(() => deps.close());

  const feed = (customerId: string, query: Record<string, string> = {}) =>
    listCustomerEvents(deps, customerId, parse(activityQuerySchema, query, 'query'));

  it('writes the event as the feed shows it', async () => {
    await deps.db.transaction().execute((trx) =>
      emit(trx, {
        type: 'customer.order.paid',
        customer_id: 'cust_e1',
        data: { order: { id: 'ord_1', amount: 100 } },
        actor: apiActor,
        created_at: T0,
        campaign: { id: 'camp_1', type: 'LOYALTY_PROGRAM' },
      }),
    );
    const [emitted] = (await feed('cust_e1')).data;
    assert.match(String(emitted?.id), /^evcus_[0-9A-Za-z]{16}$/);
    assert.deepEqual(emitted, {
      id: emitted?.id,
      type: 'customer.order.paid',
      data: {
        data: { order: { id: 'ord_1', amount: 100 } },
        event_source: { channel: 'API', api_key: { name: 'shop', app_id: 'app-1' } },
      },
      created_at: T0,
      group_id: 'v-000000000000000001',
    });
    assert.deepEqual((await feed('cust_e1')).data, [emitted]);
    assert.deepEqual((await feed('cust_e1', { category: 'ACTION', campaign_type: 'LOYALTY_PROGRAM' })).data, [emitted]);
  });

  it("is part of its caller's transaction: a rollback takes the event with it", async () => {
    await assert.rejects(
      deps.db.transaction().execute(async (trx) => {
        await emit(trx, {
          type: 'customer.rewarded',
          customer_id: 'cust_e2',
          data: {},
          actor: apiActor,
          created_at: T0,
        });
        throw new Error('the cause failed');
      }),
      /the cause failed/,
    );
    assert.deepEqual((await feed('cust_e2')).data, []);
  });

  it('takes an explicit category over the default', async () => {
    await deps.db.transaction().execute((trx) =>
      emit(trx, {
        type: 'customer.rewarded',
        customer_id: 'cust_e3',
        data: {},
        actor: apiActor,
        created_at: T0,
        category: 'ACTION',
      }),
    );
    assert.equal((await feed('cust_e3', { category: 'ACTION' })).data.length, 1);
    assert.equal((await feed('cust_e3', { category: 'EFFECT' })).data.length, 0);
  });

  it("refuses a type outside the reference's activity type names, and an unknown campaign type", async () => {
    const attempts = [
      { type: 'customer.exploded' as CustomerEventType },
      { type: 'customer.created' as CustomerEventType, campaign: { id: 'c', type: 'LOTTERY' as 'PROMOTION' } },
    ];
    for (const extra of attempts) {
      await assert.rejects(
        deps.db
          .transaction()
          .execute((trx) => emit(trx, { customer_id: 'cust_e4', data: {}, actor: apiActor, created_at: T0, ...extra })),
        (error: unknown) => error instanceof AppError && error.key === 'invalid_event' && error.status === 500,
      );
    }
  });

  it("marks command-line changes INTERNAL, without a key, grouped by the command's id", async () => {
    const actor = internalActor();
    const { customer } = await createCustomer(deps, actor, { source_id: 'cli-made' });
    const [created] = (await feed(customer.id)).data;
    assert.deepEqual(created?.data.event_source, { channel: 'INTERNAL' });
    assert.equal(created?.group_id, actor.request_id);
    assert.match(actor.request_id, /^c-[0-9a-f]{18}$/);
  });

  it("keeps a deleted customer's history, ending with customer.deleted and its last state", async () => {
    const { customer } = await createCustomer(deps, apiActor, { source_id: 'gone', name: 'Gone' });
    await deleteCustomer(deps, apiActor, 'gone');
    const events = (await feed(customer.id)).data;
    assert.deepEqual(
      events.map((e) => e.type),
      ['customer.deleted', 'customer.created'],
    );
    assert.deepEqual(events[0]?.data.data, { customer: { ...customer, assets: {}, object: 'customer' } });
  });
});

describe('event types and default categories', () => {
  it("filters by exactly the names of the reference's type filter enum (List Customer Activity)", () => {
    const spec = JSON.parse(
      readFileSync(new URL('../../../reference/voucherify-openapi-subset.json', import.meta.url), 'utf8'),
    );
    assert.deepEqual([...FILTERABLE_EVENT_TYPES], spec.components.schemas.ParameterCustomerEvent.enum);
    for (const type of FEED_ONLY_EVENT_TYPES) assert.equal(isFilterableEventType(type), false, type);
    const itemTypes: string[] = spec.components.schemas.CustomerActivity.properties.type.enum;
    assert.deepEqual(new Set(itemTypes), new Set([...FILTERABLE_EVENT_TYPES, ...FEED_ONLY_EVENT_TYPES]));
  });

  const cases: Array<[CustomerEventType, 'ACTION' | 'EFFECT']> = [
    ['customer.created', 'ACTION'],
    ['customer.updated', 'ACTION'],
    ['customer.deleted', 'ACTION'],
    ['customer.confirmed', 'ACTION'],
    ['customer.referred', 'ACTION'],
    ['customer.custom_event', 'ACTION'],
    ['customer.redemption.succeeded', 'ACTION'],
    ['customer.redemption.rollback.failed', 'ACTION'],
    ['customer.validation.failed', 'ACTION'],
    ['customer.publication.succeeded', 'ACTION'],
    ['customer.order.paid', 'ACTION'],
    ['customer.rewarded', 'EFFECT'],
    ['customer.rewarded.loyalty_points', 'EFFECT'],
    ['customer.voucher.loyalty_card.points_added', 'EFFECT'],
    ['customer.voucher.gift.balance_added', 'EFFECT'],
    ['customer.voucher.deleted', 'EFFECT'],
    ['customer.loyalty.tier.upgraded', 'EFFECT'],
    ['customer.segment.entered', 'EFFECT'],
    ['customer.email.sent', 'EFFECT'],
    ['customer.batch.failed', 'EFFECT'],
    ['customer.reward_redemptions.created', 'EFFECT'],
    ['customer.holder.assignment.created', 'EFFECT'],
    ['customer.voucher.loyalty_card.pending_points.added', 'EFFECT'],
  ];
  for (const [type, category] of cases) {
    it(`${type} is an ${category}`, () => assert.equal(defaultCategoryOf(type), category));
  }
});
