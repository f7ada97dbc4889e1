import type { Kysely } from 'kysely';
import type { Deps } from '../../../app/deps.js';
import type { Database } from '../../../db/database.js';
import type { Actor } from '../../../lib/actor.js';
import { notFound } from '../../../lib/errors.js';
import {
  type StoredTemplate,
  type CampaignView,
  type CreateCampaignBody,
  type UpdateCampaignBody,
  findCampaign,
  getCampaign,
  listCampaigns,
  type CampaignRow,
  type LoyaltyTiersExpiration,
  type LoyaltyCardTemplate,
} from '../../campaigns/index.js';
import { createCampaign, deleteCampaign, updateCampaign } from '../../vouchers/index.js';
import type { ProgramsListQuery } from './programs.schemas.js';

/**
 * Loyalty programs: LOYALTY_PROGRAM campaigns, made, changed and deleted by the campaign use
 * cases (vouchers/campaign-vouchers.service.ts), so /v1/loyalties and /v1/campaigns are one
 * thing seen through two paths. A campaign of another type is not a program here (404).
 */
type ReadDeps = { db: Kysely<Database> };
type WriteDeps = Pick<Deps, 'db' | 'clock'>;

/** A program as other loyalty parts need it: its card template and its tier rules. */
export interface LoyaltyProgram {
  id: string;
  name: string;
  campaign: CampaignRow;
  /** The card template: the points a new card starts with, and the points' expiration rules. */
  loyalty_card: LoyaltyCardTemplate;
  expiration_rules: LoyaltyCardTemplate['expiration_rules'] | null;
  loyalty_tiers_expiration: LoyaltyTiersExpiration | null;
}

const isProgram = (campaign: CampaignRow): boolean => campaign.campaign_type === 'LOYALTY_PROGRAM';

/**
 * The live program with this id or name, or 404 (resource_type `campaign`, as the reference's
 * loyalty paths answer). `deps.db` may be a transaction: `{ db: trx }`.
 */
export async function findProgram(deps: ReadDeps, idOrName: string): Promise<LoyaltyProgram> {
  const campaign = await findCampaign(deps.db, idOrName);
  if (!isProgram(campaign) || campaign.voucher === null) throw notFound('campaign', idOrName);
  const card = (JSON.parse(campaign.voucher) as StoredTemplate).loyalty_card ?? { points: 0 };
  return {
    id: campaign.id,
    name: campaign.name,
    campaign,
    loyalty_card: card,
    expiration_rules: card.expiration_rules ?? null,
    loyalty_tiers_expiration:
      campaign.loyalty_tiers_expiration === null
        ? null
        : (JSON.parse(campaign.loyalty_tiers_expiration) as LoyaltyTiersExpiration),
  };
}

export type CreateProgramBody = Omit<CreateCampaignBody, 'campaign_type' | 'voucher'> & {
  campaign_type?: 'LOYALTY_PROGRAM';
  voucher: Omit<NonNullable<CreateCampaignBody['voucher']>, 'type'> & { type?: 'LOYALTY_CARD' };
};

/** POST /v1/loyalties: a LOYALTY_PROGRAM campaign (its first cards too, when vouchers_count asks). */
export function createProgram(deps: WriteDeps, body: CreateProgramBody, actor: Actor): Promise<CampaignView> {
  const campaign: CreateCampaignBody = {
    ...body,
    campaign_type: 'LOYALTY_PROGRAM',
    voucher: { ...body.voucher, type: 'LOYALTY_CARD' },
  };
  return createCampaign(deps, campaign, actor);
}

/** GET /v1/loyalties: the programs, newest first by default, with `total`. */
export const listPrograms = (deps: ReadDeps, query: ProgramsListQuery) =>
  listCampaigns(deps, { limit: query.limit, page: query.page, order: query.order, campaign_type: 'LOYALTY_PROGRAM' });

/** GET /v1/loyalties/{id or name}. */
export async function getProgram(deps: ReadDeps, idOrName: string): Promise<CampaignView> {
  return getCampaign(deps, (await findProgram(deps, idOrName)).id);
}

/** PUT /v1/loyalties/{id or name}: as PUT /v1/campaigns, for a program only. */
export async function updateProgram(
  deps: WriteDeps,
  idOrName: string,
  body: UpdateCampaignBody,
  actor: Actor,
): Promise<CampaignView> {
  return updateCampaign(deps, (await findProgram(deps, idOrName)).id, body, actor);
}

/** DELETE /v1/loyalties/{id or name}: as DELETE /v1/campaigns (the cards go in a job), for a program only. */
export async function deleteProgram(
  deps: WriteDeps,
  idOrName: string,
  actor: Actor,
): Promise<{ async_action_id: string }> {
  return deleteCampaign(deps, (await findProgram(deps, idOrName)).id, actor);
}
