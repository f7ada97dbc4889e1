import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { campaignShape } from '../support/campaign-shape.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const T0 = '2025-05-01T09:00:00.000Z';
const T1 = '2025-05-01T09:30:00.000Z';

/**
 * A campaign created with vouchers to generate has no updated_at, as the reference's
 * POST /v1/campaigns answers it: starting the generation in the same request is no update.
 */
describe('a new campaign has no updated_at, through @voucherify/sdk', () => {
  let server: TestServer;
  let client: ServerSideClient;
  const clock = fixedClock(T0);
  before(async () => {
    server = await startTestServer({ clock });
    client = serverSideClient(server);
  });
  after(() => server.close());

  it('created with 5 vouchers to generate: none; updated later: the update time', async () => {
    const created = await client.campaigns.create({
      name: 'Generated',
      campaign_type: 'DISCOUNT_COUPONS',
      vouchers_count: 5,
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    } as Parameters<ServerSideClient['campaigns']['create']>[0]);
    // The voucher template is another test's subject (campaigns.test.ts): taken from the answer.
    const { voucher } = created as unknown as { voucher: unknown };
    const expected = campaignShape(created.id, T0, {
      name: 'Generated',
      voucher,
      vouchers_generation_status: 'IN_PROGRESS',
    });
    assert.deepEqual(created, expected);
    assert.deepEqual(await client.campaigns.get(created.id), expected);
    clock.set(T1);
    const updated = await client.campaigns.update(created.id, { description: 'Now updated' } as Parameters<
      ServerSideClient['campaigns']['update']
    >[1]);
    assert.deepEqual(updated, { ...expected, description: 'Now updated', updated_at: T1 });
  });
});
