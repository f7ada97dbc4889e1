import { lockedRow } from '../../db/locks.js';
import type { Db, Tx } from '../../db/engine.js';
import type { Deps } from '../../app/deps.js';
import { checkValidity, validityColumns } from '../../engine/validity/index.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import { listEnvelope } from '../../lib/pagination.js';
import { parse } from '../../lib/validate.js';
import { addToVouchersCount, countLiveCampaignVouchers, findCampaignOrNone } from '../campaigns/index.js';
import { categoriesById, findCategoryId, resolveCategoryId } from '../categories/index.js';
import { findSimpleCustomer } from '../customers/index.js';
import { assignmentHolders, presentVoucher, type VoucherView } from './vouchers.presenter.js';
import * as repo from './vouchers.repository.js';
import * as listRepo from './vouchers-list.repository.js';
import * as windowRepo from './vouchers-window.repository.js';
import type { WindowScan } from '../../db/filter-window.js';
import { updateVoucherSchema, type UpdateVoucherBody, type VouchersListQuery } from './vouchers.schemas.js';
import { assignmentsOfObjects, removeAssignmentsOf } from '../validation-rules/index.js';
import { codeOfAssetId } from './voucher-assets.rules.js';

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
  return presentVoucher(
    row,
    await categoriesById(deps.db, [row.category_id]),
    await assignmentsOfObjects(deps.db, assignmentHolders([row])),
  );
}

/** The list's filters with their keys resolved; null when a key names nothing (an empty list). */
async function filterOf(deps: Pick<Deps, 'db'>, query: VouchersListQuery): Promise<listRepo.VoucherFilter | null> {
  const campaignKey = query.campaign_id ?? query.campaign;
  const campaign = campaignKey === undefined ? undefined : await findCampaignOrNone(deps.db, campaignKey);
  const categoryId = query.category === undefined ? undefined : await findCategoryId(deps.db, query.category);
  const holderId = query.customer === undefined ? undefined : (await findSimpleCustomer(deps.db, query.customer))?.id;
  if (campaign === null || (query.category !== undefined && !categoryId) || (query.customer !== undefined && !holderId))
    return null;
  return {
    campaignId: campaign?.id,
    categoryId,
    holderId,
    createdBefore: query['created_at[before]'],
    createdAfter: query['created_at[after]'],
    updatedBefore: query['updated_at[before]'],
    updatedAfter: query['updated_at[after]'],
  };
}

/**
 * The list's total. Campaigns keep their count in the same transaction as every insert and
 * delete, so the total of a million vouchers (or of one campaign's) is read, not counted;
 * other filters are counted on their index.
 */
async function totalOf(deps: Pick<Deps, 'db'>, filter: listRepo.VoucherFilter): Promise<number> {
  const { campaignId, ...others } = filter;
  if (Object.values(others).some((v) => v !== undefined)) return listRepo.countVouchers(deps.db, filter);
  if (campaignId !== undefined) return (await findCampaignOrNone(deps.db, campaignId))?.vouchers_count ?? 0;
  return (await countLiveCampaignVouchers(deps.db)) + (await listRepo.countStandaloneVouchers(deps.db));
}

const envelope = (vouchers: VoucherView[], total: number) => listEnvelope('vouchers', vouchers, { total });

/** The page's vouchers as the API shows them. */
async function present(deps: Pick<Deps, 'db'>, rows: repo.VoucherRow[]): Promise<VoucherView[]> {
  const categories = await categoriesById(
    deps.db,
    rows.map((r) => r.category_id),
  );
  // One read of the page's rule assignments, whatever its size.
  const assignments = await assignmentsOfObjects(deps.db, assignmentHolders(rows));
  return rows.map((row) => presentVoucher(row, categories, assignments));
}

/**
 * GET /v1/vouchers (list-vouchers): newest first unless ordered, filtered by campaign (id or
 * name), category (id or name), customer (the holder's id or source_id) and created/updated
 * ranges (strict bounds); a key that names nothing gives an empty list. With `total`. The
 * filters no index serves are checked in the bounded window (db/filter-window.ts): page and
 * total are the window's, and `window` says what it examined.
 */
export async function listVouchers(
  deps: VoucherDeps,
  query: VouchersListQuery,
): Promise<{ list: ReturnType<typeof envelope>; window?: WindowScan }> {
  const filter = await filterOf(deps, query);
  if (filter === null) return { list: envelope([], 0) };
  const page = {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
    order: query.order ?? { field: 'created_at' as const, direction: 'desc' as const },
  };
  if (query.residual !== undefined) {
    const { rows, total, scan } = await windowRepo.readVoucherWindow(deps.db, filter, page, query.residual);
    return { list: envelope(await present(deps, rows), total), window: scan };
  }
  const rows = await listRepo.listVouchers(deps.db, filter, page);
  return { list: envelope(await present(deps, rows), await totalOf(deps, filter)) };
}

/**
 * The change PUT /v1/vouchers/{code} makes, inside the caller's transaction (the bulk updates
 * apply it too): validity, state, info, metadata, category, quantity, discount.
 */
async function applyVoucherUpdate(trx: Tx, row: repo.VoucherRow, body: UpdateVoucherBody, now: string): Promise<void> {
  const code = row.code;
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
    if (row.type !== 'DISCOUNT_VOUCHER')
      throw new AppError('invalid_voucher', `Only a DISCOUNT_VOUCHER has a discount; ${code} is a ${row.type}`);
    patch.discount = JSON.stringify(body.discount);
  }
  if (!(await repo.updateVoucher(trx, row.id, patch))) {
    throw new AppError(
      'invalid_voucher',
      `redemption.quantity cannot be below the ${row.redeemed_quantity} redemption(s) already made`,
    );
  }
}

/** PUT /v1/vouchers/{code}. */
export async function updateVoucher(deps: VoucherDeps, code: string, body: UpdateVoucherBody): Promise<VoucherView> {
  const now = isoNow(deps.clock);
  await deps.db
    .transaction()
    .execute(async (trx) => applyVoucherUpdate(trx, await findOrThrow({ db: trx }, code), body, now));
  return getVoucher(deps, code);
}

/**
 * VOUCHERS.BULK_UPDATE and VOUCHERS.METADATA_UPDATE, one voucher: the given keys merged into
 * its metadata (the others kept), through PUT's change. An unknown code is 404: the reference
 * does not upsert vouchers.
 */
export async function mergeVoucherMetadata(
  trx: Tx,
  code: string,
  metadata: Record<string, unknown>,
  now: string,
): Promise<void> {
  const read = () => repo.findVoucherByCode(trx, code);
  const row = await lockedRow(trx, 'vouchers', await read(), read);
  if (!row) throw notFound('voucher', code);
  const merged = { ...(JSON.parse(row.metadata) as Record<string, unknown>), ...metadata };
  await applyVoucherUpdate(trx, row, parse(updateVoucherSchema, { metadata: merged }, 'item'), now);
}

/** DELETE /v1/vouchers/{code}: the voucher goes, and its campaign counts one fewer. */
export async function deleteVoucher(deps: VoucherDeps, code: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await findOrThrow({ db: trx }, code);
    if (!(await repo.deleteVoucher(trx, row.id))) throw notFound('voucher', code);
    if (row.campaign_id !== null) await addToVouchersCount(trx, row.campaign_id, -1);
    await removeAssignmentsOf(trx, [row.id]);
  });
}

/** The id of the voucher with this id or code, if there is one (validation rule assignments name either). */
export async function findVoucherId(db: Pick<Deps, 'db'>['db'], idOrCode: string): Promise<string | undefined> {
  return ((await repo.findVoucherById(db, idOrCode)) ?? (await repo.findVoucherByCode(db, idOrCode)))?.id;
}

/** Several vouchers by code in one read, by code (a code with no live voucher is absent). */
export async function findVoucherRowsByCode(
  db: Pick<Deps, 'db'>['db'],
  codes: readonly string[],
): Promise<Map<string, repo.VoucherRow>> {
  return new Map((await repo.findVouchersByCodes(db, codes)).map((row) => [row.code, row]));
}

export type { VoucherRow } from './vouchers.repository.js';

export type { VoucherKey, VoucherWalk, WalkPosition } from './qualifying-vouchers.repository.js';
