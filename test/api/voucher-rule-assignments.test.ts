import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { discountCampaign } from '../support/factories.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const NOW = '2025-04-01T08:00:00.000Z';

/**
 * A voucher of a campaign that has a validation rule lists the campaign's assignment in its
 * validation_rules_assignments (GET /v1/vouchers/{code}), beside any of its own.
 */
describe('a campaign voucher shows its campaign rule assignment', () => {
  let server: TestServer;
  let client: ServerSideClient;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    client = serverSideClient(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('through @voucherify/sdk: get, list and the campaign voucher answer', async () => {
    const campaign = (await server.request('POST', '/v1/campaigns', { body: discountCampaign('Ruled campaign') })).body;
    const rule = await client.validationRules.create({
      name: 'Over 10',
      rules: { '1': { name: 'order.amount', conditions: { $more_than: [1000] } }, logic: '1' },
    });
    const onCampaign = await client.validationRules.createAssignment(rule.id, { campaign: campaign.id } as Parameters<
      ServerSideClient['validationRules']['createAssignment']
    >[1]);
    const campaignAssignment = {
      id: onCampaign.id,
      rule_id: rule.id,
      related_object_id: campaign.id,
      related_object_type: 'campaign',
      created_at: NOW,
      object: 'validation_rules_assignment',
    };
    const added = (await client.campaigns.addVoucher(campaign.id)) as unknown as {
      id: string;
      code: string;
      validation_rules_assignments: unknown;
    }; // the SDK types the answer loosely
    const list = (data: unknown[]) => ({ object: 'list', data_ref: 'data', data, total: data.length });
    assert.deepEqual(added.validation_rules_assignments, list([campaignAssignment]));
    const got = await client.vouchers.get(added.code);
    assert.deepEqual(got, added);
    assert.deepEqual(
      (await client.vouchers.list({ campaign: campaign.id })).vouchers.map((v) => v.validation_rules_assignments),
      [list([campaignAssignment])],
    );

    // A rule of its own comes first, then the campaign's.
    const own = await client.validationRules.createAssignment(rule.id, { voucher: added.code } as Parameters<
      ServerSideClient['validationRules']['createAssignment']
    >[1]);
    const ownAssignment = {
      ...campaignAssignment,
      id: own.id,
      related_object_id: added.id,
      related_object_type: 'voucher',
    };
    assert.deepEqual(
      (await client.vouchers.get(added.code)).validation_rules_assignments,
      list([ownAssignment, campaignAssignment]),
    );
  });
});
