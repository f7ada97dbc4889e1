import assert from 'node:assert/strict';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Recomputes a card's cached fields from its ledger rows and buckets alone, by the rules of
 * src/modules/ledgers/ledger.types.ts, and asserts the voucher holds exactly those.
 */
export function assertCardMatchesLedger(sqlite: BetterSqlite3.Database, voucherId: string): void {
  const sum = (types: string[]): number =>
    (
      sqlite
        .prepare(
          `SELECT coalesce(sum(abs(delta)), 0) AS s FROM ledger_entries WHERE voucher_id = ? AND type IN (${types.map(() => '?').join(',')})`,
        )
        .get(voucherId, ...types) as { s: number }
    ).s;
  const card = sqlite.prepare('SELECT * FROM vouchers WHERE id = ?').get(voucherId) as Record<
    string,
    number | string | null
  >;
  const balance = (
    sqlite.prepare('SELECT coalesce(sum(delta), 0) AS s FROM ledger_entries WHERE voucher_id = ?').get(voucherId) as {
      s: number;
    }
  ).s;
  const last = sqlite
    .prepare('SELECT balance, total FROM ledger_entries WHERE voucher_id = ? ORDER BY seq DESC LIMIT 1')
    .get(voucherId) as { balance: number; total: number } | undefined;
  if (card.type === 'GIFT_VOUCHER') {
    assert.deepEqual(
      { amount: card.gift_amount, subtracted_amount: card.gift_subtracted_amount, balance: card.gift_balance },
      { amount: sum(['CREDITS_ADDITION']), subtracted_amount: sum(['CREDITS_REMOVAL']), balance },
    );
    assert.deepEqual(last, { balance, total: card.gift_amount });
    return;
  }
  const buckets = sqlite
    .prepare(
      "SELECT expires_on, total_points FROM points_buckets WHERE voucher_id = ? AND status = 'ACTIVE' AND total_points > 0 ORDER BY expires_on",
    )
    .all(voucherId) as Array<{ expires_on: string; total_points: number }>;
  const next = buckets.find((b) => b.expires_on !== '9999-12-31');
  assert.deepEqual(
    {
      points: card.loyalty_points,
      balance: card.loyalty_balance,
      expired_points: card.loyalty_expired_points,
      subtracted_points: card.loyalty_subtracted_points,
      redeemed_points: card.redeemed_points,
      next_expiration_date: card.loyalty_next_expiration_date,
      next_expiration_points: card.loyalty_next_expiration_points,
      bucket_total: card.loyalty_balance,
    },
    {
      points: sum(['POINTS_ADDITION', 'POINTS_ACCRUAL', 'PENDING_POINTS_ACTIVATION', 'POINTS_TRANSFER_IN']),
      balance,
      expired_points: sum(['POINTS_EXPIRATION']),
      subtracted_points: sum(['POINTS_REMOVAL', 'POINTS_TRANSFER_OUT']),
      redeemed_points: sum(['POINTS_REDEMPTION']) - sum(['POINTS_REFUND']),
      next_expiration_date: next?.expires_on ?? null,
      next_expiration_points: next?.total_points ?? 0,
      bucket_total: buckets.reduce((s, b) => s + b.total_points, 0),
    },
  );
  if (last) assert.deepEqual(last, { balance, total: card.loyalty_points });
}
