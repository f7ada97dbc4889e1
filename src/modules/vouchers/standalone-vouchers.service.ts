import type { Tx } from '../../db/engine.js';
import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { VOUCHER_TYPE_BLOCK, VOUCHER_TYPES, type VoucherType } from '../../lib/enums.js';
import { templateFor, templateOfVoucher } from '../campaigns/index.js';
import { draftFromTemplate, NO_OWNER } from './voucher-draft.rules.js';
import { addVouchers, draftWithOverrides, insertOneVoucher } from './voucher-generation.service.js';
import type { VoucherView } from './vouchers.presenter.js';
import type { CreateVoucherBody } from './vouchers.schemas.js';
import { getVoucher } from './vouchers.service.js';
import { findVoucherByCode, type VoucherRow } from './vouchers.repository.js';
import { assignRulesTo } from '../validation-rules/index.js';

type CreateDeps = Pick<Deps, 'db' | 'clock'>;

/** The voucher's type: as given, else the one kind block the body carries (its schema sees to that). */
const typeOf = (body: CreateVoucherBody): VoucherType =>
  body.type ?? (VOUCHER_TYPES.find((type) => body[VOUCHER_TYPE_BLOCK[type]] !== undefined) as VoucherType);

/**
 * POST /v1/vouchers with `campaign` or `campaign_id`: one more voucher of that campaign, as
 * POST /v1/campaigns/{id}/vouchers makes it. Its kind is the campaign's, so the body may not
 * name another.
 */
async function createInCampaign(
  deps: CreateDeps,
  campaign: string,
  body: CreateVoucherBody,
  code: string | undefined,
  actor: Actor,
): Promise<VoucherView> {
  const { category, category_id, metadata, redemption, additional_info, start_date, expiration_date, code_config } =
    body;
  const overrides = {
    category: category ?? undefined,
    category_id: category_id ?? undefined,
    metadata,
    redemption,
    additional_info,
    start_date,
    expiration_date,
    code_config,
  };
  const result = await addVouchers(deps, campaign, { count: 1, body: { ...overrides, code }, actor });
  if (!('voucher' in result)) throw new Error('one voucher never starts a job');
  return result.voucher;
}

/**
 * POST /v1/vouchers (a generated code: the body's `code_config`, else 8 alphanumeric
 * characters) and POST /v1/vouchers/{code} (the path's code): a voucher outside any campaign,
 * drafted from a template built from its body, as a campaign's vouchers are from theirs. A
 * gift card or loyalty card with a balance gets its opening ledger row from the insert's
 * trigger (sql/0009_ledgers.sql).
 */
export async function createVoucher(deps: CreateDeps, body: CreateVoucherBody, actor: Actor): Promise<VoucherView> {
  const campaign = body.campaign_id ?? body.campaign;
  if (campaign !== undefined) return createInCampaign(deps, campaign, body, body.code, actor);
  const now = isoNow(deps.clock);
  const code = await deps.db.transaction().execute((trx) => insertStandaloneVoucher(trx, body, now));
  return getVoucher(deps, code);
}

/**
 * A voucher outside any campaign, in the caller's transaction (POST /v1/vouchers, and each row
 * of a VOUCHERS.IMPORT_CSV job); answers its code.
 */
export async function insertStandaloneVoucher(trx: Tx, body: CreateVoucherBody, now: string): Promise<string> {
  const template = templateOfVoucher(body, typeOf(body), { path: '', isReferral: false });
  const draft = await draftWithOverrides(trx, draftFromTemplate(template, NO_OWNER), body, now);
  const inserted = await insertOneVoucher(trx, draft, body.code, templateFor(body.code_config), now);
  if (body.validation_rules?.length) {
    const voucher = await findVoucherByCode(trx, inserted);
    await assignRulesTo(trx, { type: 'voucher', id: (voucher as VoucherRow).id }, body.validation_rules, now);
  }
  return inserted;
}
