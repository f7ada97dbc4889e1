import type { Tx } from '../../db/engine.js';
import type { Deps } from '../../app/deps.js';
import { codeGenerator, templateGlob, type CodeTemplate } from '../../engine/codes/index.js';
import { checkValidity, validityColumns, type ValidityInput } from '../../engine/validity/index.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { duplicateFound, invalidPayload } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import {
  invalidCodeConfig,
  requireTemplate,
  templateFor,
  addToVouchersCount,
  findCampaign,
  setGenerationStatus,
  type CampaignRow,
} from '../campaigns/index.js';
import { resolveCategoryId } from '../categories/index.js';
import { JobType } from '../../lib/enums.js';
import { notifyJobEnqueued } from '../../jobs/jobs.events.js';
import { enqueueJob } from '../../jobs/jobs.service.js';
import { checkCodeSpace, type CodeReservation } from './code-space.service.js';
import { draftFromCampaign, rowFromDraft, type VoucherDraft } from './voucher-draft.rules.js';
import type { AddVouchersBody } from './vouchers.schemas.js';
import { insertVoucher } from './voucher-inserts.repository.js';
import { getVoucher } from './vouchers.service.js';
import type { VoucherView } from './vouchers.presenter.js';

/** What a CAMPAIGN.VOUCHERS_GENERATE job carries. */
export interface GeneratePayload extends CodeReservation {
  campaign_id: string;
  draft: VoucherDraft;
  template: CodeTemplate;
}

/** What a request may set on a new voucher over its draft (a campaign's or a standalone one's). */
export interface DraftOverrides extends ValidityInput {
  category?: string | null;
  category_id?: string | null;
  metadata?: Record<string, unknown>;
  redemption?: { quantity?: number | null };
  additional_info?: string | null;
  active?: boolean;
}

/** The draft with the body's overrides (category, metadata, quantity, info, state, validity), checked. */
export async function draftWithOverrides(
  trx: Tx,
  draft: VoucherDraft,
  body: DraftOverrides,
  now: string,
): Promise<VoucherDraft> {
  const out = { ...draft, ...validityColumns(body) };
  const categoryId = await resolveCategoryId(trx, body, now);
  if (categoryId !== undefined) out.category_id = categoryId;
  if (body.metadata !== undefined) out.metadata = JSON.stringify(body.metadata);
  if (body.redemption?.quantity !== undefined) out.redemption_quantity = body.redemption.quantity;
  if (body.additional_info !== undefined) out.additional_info = body.additional_info;
  if (body.active !== undefined) out.active = body.active ? 1 : 0;
  checkValidity(out);
  return out;
}

/** Inserts one voucher with a generated code, drawing again on a collision. */
async function insertGenerated(trx: Tx, draft: VoucherDraft, template: CodeTemplate, now: string): Promise<string> {
  const next = codeGenerator(template);
  for (let attempt = 0; attempt < 1000; attempt++) {
    const code = next();
    if (await insertVoucher(trx, rowFromDraft(draft, newId('v_'), code, now))) return code;
  }
  throw invalidCodeConfig('No free code was found for this code config');
}

/**
 * Inserts one voucher of the draft: with the chosen code (409 duplicate_found when taken), or
 * with a code of the template, checked for room first. Returns its code.
 */
export async function insertOneVoucher(
  trx: Tx,
  draft: VoucherDraft,
  code: string | undefined,
  codes: CodeTemplate,
  now: string,
): Promise<string> {
  if (code === undefined) {
    await checkCodeSpace(trx, codes, 1);
    return insertGenerated(trx, draft, codes, now);
  }
  if (!(await insertVoucher(trx, rowFromDraft(draft, newId('v_'), code, now))))
    throw duplicateFound('voucher', 'code', code);
  return code;
}

export type AddOutcome = { code: string } | { jobId: string };

/**
 * Adds `count` vouchers to a campaign inside the caller's transaction: one at once (with the
 * body's `code` or a generated one), more through a CAMPAIGN.VOUCHERS_GENERATE job. The code
 * space is checked before anything is written.
 */
export async function addVouchersInTransaction(
  trx: Tx,
  campaign: CampaignRow,
  input: { count: number; body: AddVouchersBody; requestId: string; now: string },
): Promise<AddOutcome> {
  const { count, body, now } = input;
  const template = requireTemplate(campaign);
  if (body.code !== undefined && count > 1) throw invalidPayload('code can be given only when vouchers_count is 1');
  const codes = templateFor(body.code_config ?? template.code_config);
  const draft = await draftWithOverrides(trx, draftFromCampaign(campaign, template), body, now);
  if (count === 1) {
    const code = await insertOneVoucher(trx, draft, body.code, codes, now);
    await addToVouchersCount(trx, campaign.id, 1);
    return { code };
  }
  await checkCodeSpace(trx, codes, count);
  const payload: GeneratePayload = { campaign_id: campaign.id, draft, template: codes, glob: templateGlob(codes) };
  const jobId = await enqueueJob(trx, {
    type: JobType.vouchersGenerate,
    payload,
    total: count,
    requestId: input.requestId,
    now,
  });
  // A campaign created with its vouchers is not updated by starting them: the reference's new
  // campaign (POST /v1/campaigns with vouchers_count) has no updated_at.
  await setGenerationStatus(trx, campaign.id, 'IN_PROGRESS', campaign.created_at === now ? null : now);
  return { jobId };
}

export type AddVouchersResult = { voucher: VoucherView } | { async_action_id: string };

/** POST /v1/campaigns/{id}/vouchers (and `promo generate`). */
export async function addVouchers(
  deps: Pick<Deps, 'db' | 'clock'>,
  campaignIdOrName: string,
  input: { count: number; body: AddVouchersBody; actor: Actor },
): Promise<AddVouchersResult> {
  const now = isoNow(deps.clock);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const campaign = await findCampaign(trx, campaignIdOrName);
    return addVouchersInTransaction(trx, campaign, {
      count: input.count,
      body: input.body,
      requestId: input.actor.request_id,
      now,
    });
  });
  if ('jobId' in outcome) {
    notifyJobEnqueued();
    return { async_action_id: outcome.jobId };
  }
  return { voucher: await getVoucher(deps, outcome.code) };
}
