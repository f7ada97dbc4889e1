import type { Deps } from '../../app/deps.js';
import { checkValidity, validityColumns } from '../../engine/validity/index.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import { listEnvelope } from '../../lib/pagination.js';
import { addToVouchersCount, countLiveCampaignVouchers, findCampaignOrNone } from '../campaigns/campaigns.service.js';
import { categoriesById, resolveCategoryId } from '../categories/categories.service.js';
import { presentVoucher, type VoucherView } from './vouchers.presenter.js';
import * as repo from './vouchers.repository.js';
import type { UpdateVoucherBody, VouchersListQuery } from './vouchers.schemas.js';
import { codeOfAssetId } from './voucher-assets.js';

type VoucherDeps = Pick<Deps, 'db' | 'clock'>;

async function findOrThrow(deps: Pick<Deps, 'db'>, code: string): Promise<repo.VoucherRow> {
  const row = await repo.findVoucherByCode(deps.db, code);
  if (!row) throw notFound('voucher', code);
  return row;
}

/** The code of the voucher an asset id names; 404 when it names none. */
export async function voucherCodeOfAsset(deps: Pick<Deps, 'db'>, assetId: string): Promise<string> {
  const code = codeOfAssetId(assetId);
  if (code === undefined || !(await repo.findVoucherByCode(deps.db, code))) throw notFound('asset', assetId);
  return code;
}

/** GET /v1/vouchers/{code}. */
export async function getVoucher(deps: Pick<Deps, 'db'>, code: string): Promise<VoucherView> {
  const row = await findOrThrow(deps, code);
  return presentVoucher(row, await categoriesById(deps.db, [row.category_id]));
}

/**
 * GET /v1/vouchers: newest first unless ordered, filtered by campaign id or name (an unknown
 * campaign gives an empty list), with `total`.
 */
export async function listVouchers(deps: VoucherDeps, query: VouchersListQuery) {
  const campaignKey = query.campaign_id ?? query.campaign;
  const campaign = campaignKey === undefined ? undefined : await findCampaignOrNone(deps.db, campaignKey);
  if (campaign === null) return listEnvelope('vouchers', [] as VoucherView[], { total: 0 });
  const rows = await repo.listVouchers(deps.db, { campaignId: campaign?.id }, {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
    order: query.order ?? { field: 'created_at', direction: 'desc' },
  });
  // Campaigns keep their count in the same transaction as every insert and delete, so the
  // total of a million vouchers is a sum over campaigns, not a scan.
  const total = campaign ? campaign.vouchers_count : (await countLiveCampaignVouchers(deps.db)) + (await repo.countStandaloneVouchers(deps.db));
  const categories = await categoriesById(deps.db, rows.map((r) => r.category_id));
  return listEnvelope('vouchers', rows.map((row) => presentVoucher(row, categories)), { total });
}

/** PUT /v1/vouchers/{code}: validity, state, info, metadata, category, quantity, discount. */
export async function updateVoucher(deps: VoucherDeps, code: string, body: UpdateVoucherBody): Promise<VoucherView> {
  const now = isoNow(deps.clock);
  await deps.db.transaction().execute(async (trx) => {
    const row = await findOrThrow({ db: trx }, code);
    const validity = validityColumns(body);
    checkValidity({ ...row, ...validity });
    const patch: repo.VoucherPatch = { ...validity, updated_at: now };
    const categoryId = await resolveCategoryId(trx, body, now);
    if (categoryId !== undefined) patch.category_id = categoryId;
    if (body.active !== undefined) patch.active = body.active ? 1 : 0;
    if (body.additional_info !== undefined) patch.additional_info = body.additional_info;
    if (body.metadata !== undefined) patch.metadata = JSON.stringify(body.metadata);
    if (body.redemption?.quantity !== undefined) patch.redemption_quantity = body.redemption.quantity;
    if (body.discount !== undefined) {
      if (row.type !== 'DISCOUNT_VOUCHER') throw new AppError('invalid_voucher', `Only a DISCOUNT_VOUCHER has a discount; ${code} is a ${row.type}`);
      patch.discount = JSON.stringify(body.discount);
    }
    if (!(await repo.updateVoucher(trx, row.id, patch))) {
      throw new AppError('invalid_voucher', `redemption.quantity cannot be below the ${row.redeemed_quantity} redemption(s) already made`);
    }
  });
  return getVoucher(deps, code);
}

/** DELETE /v1/vouchers/{code}: the voucher goes, and its campaign counts one fewer. */
export async function deleteVoucher(deps: VoucherDeps, code: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await findOrThrow({ db: trx }, code);
    if (!(await repo.deleteVoucher(trx, row.id))) throw notFound('voucher', code);
    if (row.campaign_id !== null) await addToVouchersCount(trx, row.campaign_id, -1);
  });
}
