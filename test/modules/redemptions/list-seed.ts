import { insertRedemptions } from '../../../src/modules/redemptions/redemptions.repository.js';
import { assertMatchesReference, withoutNulls } from '../../support/openapi.js';
import {
  failedRow,
  parentRow,
  rollbackRow,
  tierChildRow,
  voucherChildRow,
  type VoucherRef,
  type Who,
} from '../../support/redemption-rows.js';
import type { TestServer } from '../../support/server.js';

/**
 * The redemption list's test records, seeded through the storage commit's insertRedemptions
 * (the redeem pipeline is built beside this; once merged, these should come from real
 * POST /v1/redemptions calls). Two customers made through the API, five moments:
 *
 *   t1 r_p1 (ann): r_c1a redeems SPRING-1 (campaign Spring), r_c1b gift card GIFT-1 (300), rolled back at t4
 *   t2 rf_f1 (bob): SPRING-2 refused, voucher_expired
 *   t3 r_p2 (bob): r_c2 applies the promotion tier promo_1 of campaign Promo
 *   t4 rr_1 (ann): the rollback of r_c1b
 *   t5 rf_f2 (no customer, tracking anon-1): unknown code NOPE, resource_not_found
 */
export const T = [
  '2026-01-01T10:00:00.000Z',
  '2026-01-01T11:00:00.000Z',
  '2026-01-01T12:00:00.000Z',
  '2026-01-01T13:00:00.000Z',
  '2026-01-01T14:00:00.000Z',
] as const;

export const SPRING = { id: 'camp_spring', name: 'Spring' };
export const PROMO = { id: 'camp_promo', name: 'Promo' };
const spring1: VoucherRef = { id: 'v_s1', code: 'SPRING-1', campaign: SPRING };
const spring2: VoucherRef = { id: 'v_s2', code: 'SPRING-2', campaign: SPRING };
const gift: VoucherRef = { id: 'v_g1', code: 'GIFT-1', campaign: null };
const nope: VoucherRef = { id: 'NOPE', code: 'NOPE', campaign: null };

/** Newest first: the list's default order. */
export const NEWEST_FIRST = ['rf_f2', 'rr_1', 'r_c2', 'r_p2', 'rf_f1', 'r_c1b', 'r_c1a', 'r_p1'];

export interface Seeded {
  ann: Who;
  bob: Who;
}

export async function seedRedemptions(server: TestServer): Promise<Seeded> {
  const customer = async (source_id: string): Promise<Who> => ({
    id: (await server.request('POST', '/v1/customers', { body: { source_id } })).body.id,
    source_id,
  });
  const ann = await customer('ann');
  const bob = await customer('bob');
  const rolledBack = {
    status: 'ROLLED_BACK' as const,
    related_redemptions: JSON.stringify({
      rollbacks: [{ id: 'rr_1', date: T[3], rollback_order_mode: 'WITH_ORDER' }],
      redemptions: [],
    }),
  };
  await insertRedemptions(server.deps.db, [
    parentRow('r_p1', { at: T[0], who: ann, order: 'ord_1', children: ['r_c1a', 'r_c1b'] }),
    voucherChildRow('r_c1a', { at: T[0], who: ann, parent: 'r_p1', order: 'ord_1', voucher: spring1 }),
    {
      ...voucherChildRow('r_c1b', { at: T[0], who: ann, parent: 'r_p1', order: 'ord_1', voucher: gift, gift: 300 }),
      ...rolledBack,
    },
    failedRow('rf_f1', { at: T[1], who: bob, voucher: spring2, code: 'voucher_expired', message: 'voucher expired' }),
    parentRow('r_p2', { at: T[2], who: bob, order: 'ord_2', children: ['r_c2'] }),
    tierChildRow('r_c2', { at: T[2], who: bob, parent: 'r_p2', order: 'ord_2', tier: 'promo_1', campaign: PROMO }),
    rollbackRow('rr_1', { at: T[3], who: ann, of: 'r_c1b', order: 'ord_1', voucher: gift, gift: 300 }),
    failedRow('rf_f2', {
      at: T[4],
      who: null,
      tracking: 'anon-1',
      voucher: nope,
      code: 'resource_not_found',
      message: 'Resource not found',
    }),
  ]);
  return { ann, bob };
}

/**
 * A record with its nested blocks without their nulls, as redemption-shape.ts checks them:
 * the reference types a customer's `name` or a voucher's `campaign` as plain strings that the
 * real API answers as null; top-level nullable fields (`order`, `customer`...) stay as answered.
 */
const nestedWithoutNulls = (record: object): object =>
  Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key,
      value !== null && typeof value === 'object' ? withoutNulls(value) : value,
    ]),
  );

/** GET /v1/redemptions's answer against the reference (list-redemptions). */
export const assertListMatches = (body: { redemptions: object[] }): void =>
  assertMatchesReference('GET', '/v1/redemptions', 200, {
    ...body,
    redemptions: body.redemptions.map(nestedWithoutNulls),
  });

/** GET /v1/redemptions/{id}'s answer against the reference (get-redemption). */
export const assertRecordMatches = (body: object): void =>
  assertMatchesReference('GET', '/v1/redemptions/{redemptionId}', 200, nestedWithoutNulls(body));
