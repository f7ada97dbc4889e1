import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The official client (@voucherify/sdk), unchanged, against validation rules and their assignments. */
describe('validation rules through @voucherify/sdk', () => {
  let server: TestServer;
  let client: ServerSideClient;
  let voucherId: string;
  const clock = fixedClock('2024-09-01T00:00:00.000Z');
  const at = () => clock.now().toISOString();
  before(async () => {
    server = await startTestServer({ clock });
    client = serverSideClient(server);
    voucherId = (
      await server.request('POST', '/v1/vouchers/SDK-RULED', {
        body: { discount: { type: 'AMOUNT', amount_off: 500 } },
      })
    ).body.id;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('creates, gets, lists, updates, assigns, unassigns and deletes a rule', async () => {
    const rules = { '1': { name: 'order.amount', conditions: { $more_than: [10000] } }, logic: '1' };
    const created = await client.validationRules.create({
      name: 'Order over 100',
      rules,
      error: { message: 'Spend over 100' },
    });
    const ruleId = created.id;
    const expected = {
      id: ruleId,
      name: 'Order over 100',
      rules: {
        '1': { name: 'order.amount', property: null, conditions: { $more_than: [10000] }, rules: {} },
        logic: '1',
      },
      error: { message: 'Spend over 100' },
      applicable_to: { excluded: [], included: [], included_all: false },
      created_at: at(),
      type: 'expression',
      context_type: 'global',
      object: 'validation_rules',
    };
    // The create answer is the rule as given (POST /v1/validation-rules); reads show it as stored.
    assert.deepEqual(created, { ...expected, applicable_to: null, updated_at: null, assignments_count: null });
    assert.deepEqual(await client.validationRules.get(ruleId), expected);
    assert.deepEqual(await client.validationRules.list({ limit: 10, page: 1 }), {
      object: 'list',
      data_ref: 'data',
      data: [expected],
      total: 1,
    });

    clock.advance(1000);
    const updated = await client.validationRules.update({ id: ruleId, name: 'Order over 100.00' });
    assert.deepEqual(updated, { ...expected, name: 'Order over 100.00', updated_at: at() });

    clock.advance(1000);
    const assignment = await client.validationRules.createAssignment(ruleId, { voucher: 'SDK-RULED' });
    const assigned = {
      id: assignment.id,
      rule_id: ruleId,
      related_object_id: voucherId,
      related_object_type: 'voucher',
      created_at: at(),
      object: 'validation_rules_assignment',
    };
    assert.deepEqual(assignment, assigned);
    assert.deepEqual(await client.validationRules.listAssignments(ruleId), {
      object: 'list',
      data_ref: 'data',
      data: [assigned],
      total: 1,
    });
    assert.deepEqual(await client.validationRules.listRulesAssignments({ related_object_id: voucherId }), {
      object: 'list',
      data_ref: 'data',
      data: [assigned],
      total: 1,
    });
    assert.deepEqual((await client.vouchers.get('SDK-RULED')).validation_rules_assignments, {
      object: 'list',
      data_ref: 'data',
      data: [assigned],
      total: 1,
    });

    await client.validationRules.deleteAssignment(ruleId, assignment.id);
    assert.deepEqual(await client.validationRules.listAssignments(ruleId), {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
    await client.validationRules.delete(ruleId);
    await assert.rejects(
      client.validationRules.get(ruleId),
      (error: { code: number; key: string; message: string }) => {
        assert.deepEqual([error.code, error.key, error.message], [404, 'not_found', 'Resource not found']);
        return true;
      },
    );
  });

  it('answers a new rule as given: {} rules, null lists not given, strict included items, nothing counted', async () => {
    clock.advance(1000);
    const included = [{ object: 'product' as const, id: 'prod_sdk', effect: 'APPLY_TO_EVERY' as const }];
    const created: { id: string } = await client.validationRules.create({
      name: 'Products only',
      applicable_to: { included },
    } as Parameters<ServerSideClient['validationRules']['create']>[0]);
    assert.deepEqual(created, {
      id: created.id,
      name: 'Products only',
      rules: {},
      applicable_to: { excluded: null, included: [{ ...included[0], strict: false }], included_all: false },
      created_at: at(),
      updated_at: null,
      type: 'expression',
      context_type: 'global',
      assignments_count: null,
      object: 'validation_rules',
    });
    assert.deepEqual(await client.validationRules.get(created.id), {
      id: created.id,
      name: 'Products only',
      rules: { logic: '' },
      applicable_to: { excluded: [], included, included_all: false },
      created_at: at(),
      type: 'expression',
      context_type: 'global',
      object: 'validation_rules',
    });
  });
});
