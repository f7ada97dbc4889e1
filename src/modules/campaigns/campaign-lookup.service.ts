import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import * as repo from './campaigns.repository.js';
import type { GenerationStatus } from './campaigns.table.js';

/**
 * Campaign operations other domains (vouchers, jobs) use inside their own transactions.
 * Kept apart from campaigns.service.ts so that it can call the vouchers service without a cycle.
 */
export type CampaignRow = repo.CampaignRow;

/** A live campaign by id or name, or 404. */
export async function findCampaign(db: Kysely<Database>, idOrName: string): Promise<CampaignRow> {
  const campaign = (await repo.findLiveCampaignById(db, idOrName)) ?? (await repo.findLiveCampaignByName(db, idOrName));
  if (!campaign) throw notFound('campaign', idOrName);
  return campaign;
}

/** A live campaign by id or name, or null. */
export async function findCampaignOrNone(db: Kysely<Database>, idOrName: string): Promise<CampaignRow | null> {
  return (await repo.findLiveCampaignById(db, idOrName)) ?? (await repo.findLiveCampaignByName(db, idOrName)) ?? null;
}

/** The live campaign with this id, if it still exists. */
export const findLiveCampaign = (db: Kysely<Database>, id: string): Promise<CampaignRow | undefined> => repo.findLiveCampaignById(db, id);

export const countCampaignVouchers = (db: Kysely<Database>, id: string, delta: number): Promise<void> =>
  repo.addVouchersCount(db, id, delta);

export const setGenerationStatus = (db: Kysely<Database>, id: string, status: GenerationStatus, now: string): Promise<void> =>
  repo.setGenerationStatus(db, id, status, now);

/** Vouchers in all live campaigns, from their counts. */
export const countLiveCampaignVouchers = (db: Kysely<Database>): Promise<number> => repo.sumLiveVouchersCount(db);

/** Removes a deleted campaign's row (and its tiers) once its vouchers are gone. */
export const removeCampaignRow = (db: Kysely<Database>, id: string): Promise<void> => repo.deleteCampaignRow(db, id);
