import type { Deps } from '../../../app/deps.js';
import { isoNow } from '../../../lib/clock.js';
import { notFound } from '../../../lib/errors.js';
import { releaseVoucherLock } from '../../sessions/index.js';
import { findVoucherId } from '../../vouchers/index.js';

/**
 * release-validation-session (`vouchers.releaseValidationSession` of the SDK): gives back what
 * a LOCK session holds of the voucher (docs/api.md "Session locks"), in one write transaction.
 * Unknown voucher: 404 voucher; no live lock by that key (unknown, expired or consumed by a
 * redemption): 404 session. Nothing changes when it is refused.
 */
export async function releaseValidationSession(
  deps: Pick<Deps, 'db' | 'clock'>,
  code: string,
  key: string,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const voucherId = await findVoucherId(trx, code);
    if (voucherId === undefined) throw notFound('voucher', code);
    if (!(await releaseVoucherLock(trx, key, voucherId, isoNow(deps.clock)))) throw notFound('session', key);
  });
}
