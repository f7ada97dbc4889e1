import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../../src/lib/clock.js';
import { dbFingerprint } from '../../support/db.js';
import { beyondSdkTypes, serverSideClient, type ServerSideClient } from '../../support/sdk.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { giftCard, percentVoucher } from './fixtures.js';
import { sqliteOf } from '../../support/sqlite.js';

const NOW = '2026-05-04T09:00:00.000Z';
type Json = Record<string, unknown>;

/**
 * DELETE /v1/vouchers/{code}/sessions/{key} (`vouchers.releaseValidationSession`): a LOCK
 * session's hold on one voucher is given back before it expires; a session left holding no
 * voucher is gone. Refusals (unknown voucher, unknown, expired or consumed session) are 404
 * and change nothing.
 */
describe('releasing a validation session through @voucherify/sdk', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  const clock = fixedClock(NOW);
  before(async () => {
    server = await startTestServer({ clock });
    sdk = serverSideClient(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const body = (redeemables: Json[], session?: Json) => ({
    order: { amount: 1000 },
    customer: { source_id: 'rel-ann' },
    redeemables,
    ...(session ? { session } : {}),
  });
  const held = (code: string) =>
    sqliteOf(server.deps)
      .prepare('SELECT redeemed_quantity, reserved_quantity, reserved_credits FROM vouchers WHERE code = ?')
      .get(code);
  const sessions = () => sqliteOf(server.deps).prepare('SELECT key FROM session_locks ORDER BY key').all();
  const refusedWith =
    (code: number, key: string, details: string, extra: Json = {}) =>
    (error: Json) => {
      assert.deepEqual(
        {
          code: error.code,
          key: error.key,
          message: error.message,
          details: error.details,
          resource_id: error.resource_id,
          resource_type: error.resource_type,
        },
        {
          code,
          key,
          message: 'Resource not found',
          details,
          resource_id: undefined,
          resource_type: undefined,
          ...extra,
        },
      );
      return true;
    };

  it('frees the last unit a validation held, so another customer may take it', async () => {
    await percentVoucher(server, 'REL-ONE', { redemption: { quantity: 1 } });
    const locked = await sdk.validations.validateStackable(
      beyondSdkTypes(body([{ object: 'voucher', id: 'REL-ONE' }], { type: 'LOCK', key: 'ssn_rel_one' })),
    );
    assert.equal(locked.valid, true);
    assert.deepEqual(held('REL-ONE'), { redeemed_quantity: 0, reserved_quantity: 1, reserved_credits: 0 });
    assert.equal(
      (await sdk.validations.validateStackable(beyondSdkTypes(body([{ object: 'voucher', id: 'REL-ONE' }])))).valid,
      false,
    );

    assert.equal(await sdk.vouchers.releaseValidationSession('REL-ONE', 'ssn_rel_one'), '');
    assert.deepEqual(held('REL-ONE'), { redeemed_quantity: 0, reserved_quantity: 0, reserved_credits: 0 });
    assert.deepEqual(sessions(), []);
    const other = await sdk.redemptions.redeemStackable(beyondSdkTypes(body([{ object: 'voucher', id: 'REL-ONE' }])));
    assert.equal(other.parent_redemption.result, 'SUCCESS');
    assert.deepEqual(held('REL-ONE'), { redeemed_quantity: 1, reserved_quantity: 0, reserved_credits: 0 });
  });

  it('releases one voucher of a stacked session and keeps the other held until it is released too', async () => {
    await percentVoucher(server, 'REL-PCT', { redemption: { quantity: 1 } });
    await giftCard(server, 'REL-GIFT', 1000);
    const redeemables = [
      { object: 'voucher', id: 'REL-PCT' },
      { object: 'voucher', id: 'REL-GIFT', gift: { credits: 500 } },
    ];
    assert.equal(
      (await sdk.validations.validateStackable(beyondSdkTypes(body(redeemables, { type: 'LOCK', key: 'ssn_rel_two' }))))
        .valid,
      true,
    );
    assert.deepEqual(
      [held('REL-PCT'), held('REL-GIFT')],
      [
        { redeemed_quantity: 0, reserved_quantity: 1, reserved_credits: 0 },
        { redeemed_quantity: 0, reserved_quantity: 0, reserved_credits: 500 },
      ],
    );

    assert.equal(await sdk.vouchers.releaseValidationSession('REL-PCT', 'ssn_rel_two'), '');
    assert.deepEqual(
      [held('REL-PCT'), held('REL-GIFT')],
      [
        { redeemed_quantity: 0, reserved_quantity: 0, reserved_credits: 0 },
        { redeemed_quantity: 0, reserved_quantity: 0, reserved_credits: 500 },
      ],
    );
    assert.deepEqual(sessions(), [{ key: 'ssn_rel_two' }]);
    // Released again, the voucher has nothing left to give: the session still holds the card.
    assert.equal(await sdk.vouchers.releaseValidationSession('REL-PCT', 'ssn_rel_two'), '');
    assert.deepEqual(held('REL-GIFT'), { redeemed_quantity: 0, reserved_quantity: 0, reserved_credits: 500 });

    // By the voucher's id as well as its code.
    const gift = await sdk.vouchers.get('REL-GIFT');
    assert.equal(await sdk.vouchers.releaseValidationSession(gift.id as string, 'ssn_rel_two'), '');
    assert.deepEqual(held('REL-GIFT'), { redeemed_quantity: 0, reserved_quantity: 0, reserved_credits: 0 });
    assert.deepEqual(sessions(), []);
    await assert.rejects(
      sdk.vouchers.releaseValidationSession('REL-GIFT', 'ssn_rel_two'),
      refusedWith(404, 'not_found', 'Cannot find session with id ssn_rel_two', {
        resource_id: 'ssn_rel_two',
        resource_type: 'session',
      }),
    );
  });

  it('refuses an unknown voucher, an unknown, expired or consumed session with 404, changing nothing', async () => {
    await percentVoucher(server, 'REL-OLD', { redemption: { quantity: 2 } });
    await sdk.validations.validateStackable(
      beyondSdkTypes(
        body([{ object: 'voucher', id: 'REL-OLD' }], {
          type: 'LOCK',
          key: 'ssn_rel_old',
          ttl: 1,
          ttl_unit: 'HOURS',
        }),
      ),
    );
    await sdk.validations.validateStackable(
      beyondSdkTypes(body([{ object: 'voucher', id: 'REL-OLD' }], { type: 'LOCK', key: 'ssn_rel_used' })),
    );
    await sdk.redemptions.redeemStackable(
      beyondSdkTypes(body([{ object: 'voucher', id: 'REL-OLD' }], { key: 'ssn_rel_used' })),
    );
    clock.advance(2 * 3_600_000);
    const before = dbFingerprint(sqliteOf(server.deps));
    await assert.rejects(
      sdk.vouchers.releaseValidationSession('REL-NONE', 'ssn_rel_old'),
      refusedWith(404, 'not_found', 'Cannot find voucher with id REL-NONE', {
        resource_id: 'REL-NONE',
        resource_type: 'voucher',
      }),
    );
    for (const key of ['ssn_rel_nope', 'ssn_rel_old', 'ssn_rel_used']) {
      await assert.rejects(
        sdk.vouchers.releaseValidationSession('REL-OLD', key),
        refusedWith(404, 'not_found', `Cannot find session with id ${key}`, {
          resource_id: key,
          resource_type: 'session',
        }),
      );
    }
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    clock.set(NOW);
  });
});
