import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { listEnvelope } from '../../lib/pagination.js';
import { categoriesById } from '../categories/index.js';
import { presentCampaign, type CampaignView } from './campaigns.presenter.js';
import { assignmentsOfObjects } from '../validation-rules/index.js';
import * as repo from './campaigns.repository.js';
import type { CampaignsListQuery } from './campaigns.schemas.js';
import type { Db } from '../../db/engine.js';

/**
 * Reading campaigns, and the campaign side of voucher work: the vouchers module (which owns
 * every use case that touches both) calls these inside its own transactions.
 */
export type CampaignRow = repo.CampaignRow;

/** A live campaign by id or name, or null. */
export async function findCampaignOrNone(db: Db, idOrName: string): Promise<CampaignRow | null> {
  return (await repo.findLiveCampaignById(db, idOrName)) ?? (await repo.findLiveCampaignByName(db, idOrName)) ?? null;
}

/** A live campaign by id or name, or 404. */
export async function findCampaign(db: Db, idOrName: string): Promise<CampaignRow> {
  const campaign = await findCampaignOrNone(db, idOrName);
  if (!campaign) throw notFound('campaign', idOrName);
  return campaign;
}

async function present(db: Db, rows: CampaignRow[]): Promise<CampaignView[]> {
  const tiers = await repo.listPromotionTierRows(
    db,
    rows.filter((r) => r.campaign_type === 'PROMOTION').map((r) => r.id),
  );
  const categories = await categoriesById(db, [...rows.map((r) => r.category_id), ...tiers.map((t) => t.category_id)]);
  // One read of the rules assigned to the page's campaigns and their tiers.
  const assignments = await assignmentsOfObjects(db, [...rows.map((r) => r.id), ...tiers.map((t) => t.id)]);
  return rows.map((row) =>
    presentCampaign(
      row,
      tiers.filter((t) => t.campaign_id === row.id),
      categories,
      assignments,
    ),
  );
}

/**
 * POST /v1/campaigns/{id or name}/enable and /disable: the campaign's own `active` flag (its
 * vouchers keep theirs). The reference answers an empty object.
 */
export async function setCampaignActive(
  deps: Pick<Deps, 'db' | 'clock'>,
  idOrName: string,
  active: boolean,
): Promise<Record<string, never>> {
  await deps.db.transaction().execute(async (trx) => {
    const campaign = await findCampaign(trx, idOrName);
    await repo.updateCampaignRow(trx, campaign.id, { active: active ? 1 : 0, updated_at: isoNow(deps.clock) });
  });
  return {};
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
  const rows = await repo.listCampaigns(deps.db, filter, {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
    order,
  });
  const total = await repo.countCampaigns(deps.db, filter);
  return listEnvelope('campaigns', await present(deps.db, rows), { total });
}
