import type { Kysely } from 'kysely';
import type { Deps } from '../../app/deps.js';
import type { Database } from '../../db/database.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { duplicateFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { listEnvelope } from '../../lib/pagination.js';
import { notifyJobEnqueued } from '../../jobs/jobs.events.js';
import { addVouchersInTransaction } from '../vouchers/voucher-generation.service.js';
import { findCampaign } from './campaign-lookup.service.js';
import { templateFromBody } from './campaign-template.js';
import { presentCampaign, type CampaignView } from './campaigns.presenter.js';
import * as repo from './campaigns.repository.js';
import type { CampaignsListQuery, CreateCampaignBody, TierBody } from './campaigns.schemas.js';
import { categoriesById, resolveCategoryId } from './categories.service.js';
import { checkValidity, validityColumns, type ValidityColumns } from './validity.js';

type CampaignDeps = Pick<Deps, 'db' | 'clock'>;

const flag = (value: boolean | undefined, fallback = false): number => ((value ?? fallback) ? 1 : 0);

function fullValidity(input: Partial<ValidityColumns>, path = ''): ValidityColumns {
  const columns: ValidityColumns = {
    start_date: input.start_date ?? null,
    expiration_date: input.expiration_date ?? null,
    validity_timeframe: input.validity_timeframe ?? null,
    validity_day_of_week: input.validity_day_of_week ?? null,
    validity_hours: input.validity_hours ?? null,
  };
  checkValidity(columns, path);
  return columns;
}

async function insertTiers(trx: Kysely<Database>, campaignId: string, tiers: TierBody[], now: string): Promise<void> {
  const rows: repo.TierInsert[] = [];
  for (const [i, tier] of tiers.entries()) {
    rows.push({
      id: newId('promo_'),
      campaign_id: campaignId,
      name: tier.name,
      banner: tier.banner ?? null,
      action: JSON.stringify({ discount: tier.action.discount }),
      metadata: JSON.stringify(tier.metadata ?? {}),
      hierarchy: tier.hierarchy ?? i + 1,
      active: flag(tier.active, true),
      ...fullValidity(validityColumns(tier), `promotion.tiers[${i}].`),
      category_id: (await resolveCategoryId(trx, tier, now)) ?? null,
      created_at: now,
      updated_at: null,
    });
  }
  await repo.insertTiers(trx, rows);
}

/** POST /v1/campaigns: the campaign, its tiers, and its first vouchers (a job beyond one). */
export async function createCampaign(deps: CampaignDeps, body: CreateCampaignBody, actor: Actor): Promise<CampaignView> {
  const template = templateFromBody(body);
  const validity = fullValidity(validityColumns(body));
  const now = isoNow(deps.clock);
  const id = newId('camp_');
  const count = body.vouchers_count ?? 0;
  const jobStarted = await deps.db.transaction().execute(async (trx) => {
    if (await repo.findLiveCampaignByName(trx, body.name)) throw duplicateFound('campaign', 'name', body.name);
    await repo.insertCampaign(trx, {
      id,
      name: body.name,
      description: body.description ?? null,
      campaign_type: body.campaign_type,
      type: body.type ?? 'AUTO_UPDATE',
      voucher: template ? JSON.stringify(template) : null,
      referral_program: body.referral_program ? JSON.stringify(body.referral_program) : null,
      auto_join: flag(body.auto_join),
      join_once: flag(body.join_once),
      use_voucher_metadata_schema: flag(body.use_voucher_metadata_schema),
      ...validity,
      activity_duration_after_publishing: body.activity_duration_after_publishing ?? null,
      vouchers_count: 0,
      active: 1,
      metadata: JSON.stringify(body.metadata ?? {}),
      category_id: (await resolveCategoryId(trx, body, now)) ?? null,
      creation_status: 'DONE',
      vouchers_generation_status: 'DONE',
      protected: 0,
      created_at: now,
      updated_at: null,
      deleted_at: null,
    });
    if (body.promotion) await insertTiers(trx, id, body.promotion.tiers, now);
    if (count === 0) return false;
    const campaign = await findCampaign(trx, id);
    const outcome = await addVouchersInTransaction(trx, campaign, { count, body: {}, requestId: actor.request_id, now });
    return 'jobId' in outcome;
  });
  if (jobStarted) notifyJobEnqueued();
  return getCampaign(deps, id);
}

async function present(db: Kysely<Database>, rows: repo.CampaignRow[]): Promise<CampaignView[]> {
  const tiers = await repo.listTiers(db, rows.filter((r) => r.campaign_type === 'PROMOTION').map((r) => r.id));
  const categories = await categoriesById(db, [...rows.map((r) => r.category_id), ...tiers.map((t) => t.category_id)]);
  return rows.map((row) => presentCampaign(row, tiers.filter((t) => t.campaign_id === row.id), categories));
}

/** GET /v1/campaigns/{id or name}. */
export async function getCampaign(deps: Pick<Deps, 'db'>, idOrName: string): Promise<CampaignView> {
  const [view] = await present(deps.db, [await findCampaign(deps.db, idOrName)]);
  return view as CampaignView;
}

/** GET /v1/campaigns: newest first by default. */
export async function listCampaigns(deps: Pick<Deps, 'db'>, query: CampaignsListQuery) {
  const filter = { campaignType: query.campaign_type };
  const order = query.order ?? { field: 'created_at', direction: 'desc' };
  const rows = await repo.listCampaigns(deps.db, filter, { limit: query.limit, offset: (query.page - 1) * query.limit, order });
  const total = await repo.countCampaigns(deps.db, filter);
  return listEnvelope('campaigns', await present(deps.db, rows), { total });
}
