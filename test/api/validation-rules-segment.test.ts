import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorBody, requestIdOf, startTestServer, type TestResponse, type TestServer } from '../support/server.js';

/**
 * Validation rules on the customer's segments (the reference's audience rule: a customer in or
 * out of a segment), named `customer.segment` as in the reference's rule examples or
 * `customer_segment`, with `$is`, `$is_not`, `$in` and `$not_in` on segment ids; judged in
 * POST /v1/validations and POST /v1/redemptions alike.
 */
describe('validation rules on customer segments', () => {
  let server: TestServer;
  const segments: Record<string, string> = {};

  const post = async (path: string, body: unknown): Promise<TestResponse> => server.request('POST', path, { body });
  const ok = async (path: string, body: unknown) => {
    const res = await post(path, body);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return res.body;
  };

  before(async () => {
    server = await startTestServer();
    for (const who of ['ann', 'bob', 'cid']) await ok('/v1/customers', { source_id: who });
    segments.gold = (await ok('/v1/segments', { name: 'Gold', type: 'static', customers: ['ann'] })).id;
    segments.silver = (await ok('/v1/segments', { name: 'Silver', type: 'static', customers: ['bob'] })).id;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  /** A voucher with one rule of one segment condition. */
  async function voucherWithRule(code: string, name: string, conditions: Record<string, string[]>): Promise<string> {
    const rule = await ok('/v1/validation-rules', {
      name: `${code} rule`,
      rules: { '1': { name, conditions }, logic: '1' },
      error: { message: `${code}: wrong segment` },
    });
    assert.deepEqual(rule.rules, { '1': { name, conditions, property: null, rules: {} }, logic: '1' });
    await ok(`/v1/vouchers/${code}`, {
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'PERCENT', percent_off: 10 },
      validation_rules: [rule.id],
    });
    return rule.id;
  }

  const validate = (code: string, who: string) =>
    post('/v1/validations', {
      customer: { source_id: who },
      order: { amount: 1000 },
      redeemables: [{ object: 'voucher', id: code }],
    });
  const redeem = (code: string, who: string) =>
    post('/v1/redemptions', {
      customer: { source_id: who },
      order: { amount: 1000 },
      redeemables: [{ object: 'voucher', id: code }],
    });

  /** Who passes the voucher's rule, in validations and in redemptions, and the refusal of the others. */
  async function assertAudience(code: string, members: string[], others: string[]) {
    for (const who of members) {
      const validated = await validate(code, who);
      assert.deepEqual(
        [validated.status, validated.body.valid, validated.body.redeemables[0].status],
        [200, true, 'APPLICABLE'],
        `${code} ${who}`,
      );
      const redeemed = await redeem(code, who);
      assert.deepEqual([redeemed.status, redeemed.body.order.total_discount_amount], [200, 100], `${code} ${who}`);
    }
    for (const who of others) {
      const validated = await validate(code, who);
      assert.deepEqual([validated.status, validated.body.valid], [200, false], `${code} ${who}`);
      assert.deepEqual(validated.body.redeemables[0], {
        status: 'INAPPLICABLE',
        id: code,
        object: 'voucher',
        result: {
          error: {
            code: 400,
            key: 'customer_rules_violated',
            message: 'customer does not match validation rules',
            details: `${code}: wrong segment`,
            request_id: requestIdOf(validated),
          },
          details: { key: 'customer_rules_violated', message: `${code}: wrong segment` },
        },
      });
      const refused = await redeem(code, who);
      assert.deepEqual(
        refused.body,
        errorBody(refused, {
          code: 400,
          key: 'customer_rules_violated',
          message: 'customer does not match validation rules',
          details: `voucher ${code}: ${code}: wrong segment`,
          resource_id: refused.body.resource_id,
          resource_type: 'redemption',
        }),
        `${code} ${who}`,
      );
    }
  }

  it('customer_segment $is and $in let the segment members through', async () => {
    await voucherWithRule('SEG-IS', 'customer_segment', { $is: [segments.gold as string] });
    await assertAudience('SEG-IS', ['ann'], ['bob', 'cid']);
    await voucherWithRule('SEG-IN', 'customer_segment', { $in: [segments.gold as string, segments.silver as string] });
    await assertAudience('SEG-IN', ['ann', 'bob'], ['cid']);
  });

  it('customer_segment $is_not and $not_in keep the segment members out', async () => {
    await voucherWithRule('SEG-NOT', 'customer_segment', { $is_not: [segments.gold as string] });
    await assertAudience('SEG-NOT', ['bob', 'cid'], ['ann']);
    await voucherWithRule('SEG-NOT-IN', 'customer.segment', {
      $not_in: [segments.gold as string, segments.silver as string],
    });
    await assertAudience('SEG-NOT-IN', ['cid'], ['ann', 'bob']);
  });

  it('refuses a segment condition with other operators, naming them', async () => {
    const res = await post('/v1/validation-rules', {
      name: 'Bad',
      rules: { '1': { name: 'customer_segment', conditions: { $more_than: [1] } }, logic: '1' },
    });
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details:
          'rules.1.customer.segment.conditions.$more_than does not apply to customer.segment (a string array field)',
      }),
    );
  });
});
