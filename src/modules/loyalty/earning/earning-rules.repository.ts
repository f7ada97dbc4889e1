import type { Insertable, Selectable, Updateable } from 'kysely';
import type { OrderBy } from '../../../lib/pagination.js';
import type { EarningRuleTable } from './earning-rules.table.js';
import type { Db } from '../../../db/engine.js';

export type EarningRuleRow = Selectable<EarningRuleTable>;
export type NewEarningRuleRow = Insertable<EarningRuleTable>;
export type EarningRulePatch = Updateable<EarningRuleTable>;

export async function insertEarningRules(db: Db, rows: NewEarningRuleRow[]): Promise<EarningRuleRow[]> {
  return db.insertInto('earning_rules').values(rows).returningAll().execute();
}

export const findEarningRule = (db: Db, campaignId: string, id: string): Promise<EarningRuleRow | undefined> =>
  db
    .selectFrom('earning_rules')
    .selectAll()
    .where('id', '=', id)
    .where('campaign_id', '=', campaignId)
    .executeTakeFirst();

export const findEarningRuleById = (db: Db, id: string): Promise<EarningRuleRow | undefined> =>
  db.selectFrom('earning_rules').selectAll().where('id', '=', id).executeTakeFirst();

export interface EarningRulePageQuery {
  campaignId: string;
  sort: OrderBy<'created_at' | 'updated_at'>;
  offset: number;
  limit: number;
}

/**
 * A page of a program's rules, read in order from earning_rules_created or _updated (ties by
 * creation, then seq; never-updated rules come first in ascending updated_at).
 */
export function listEarningRules(db: Db, q: EarningRulePageQuery): Promise<EarningRuleRow[]> {
  let query = db.selectFrom('earning_rules').selectAll().where('campaign_id', '=', q.campaignId);
  if (q.sort.field === 'updated_at') query = query.orderBy('updated_at', q.sort.direction);
  return query
    .orderBy('created_at', q.sort.direction)
    .orderBy('seq', q.sort.direction)
    .limit(q.limit)
    .offset(q.offset)
    .execute();
}

export async function countEarningRules(db: Db, campaignId: string): Promise<number> {
  const row = await db
    .selectFrom('earning_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('campaign_id', '=', campaignId)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function updateEarningRule(db: Db, id: string, patch: EarningRulePatch): Promise<EarningRuleRow> {
  return db.updateTable('earning_rules').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteEarningRule(db: Db, id: string): Promise<void> {
  await db.deleteFrom('earning_rules').where('id', '=', id).execute();
}

/** A program's active rules for one event (earning_rules_event), oldest first. */
export const listActiveRulesForEvent = (db: Db, campaignIds: string[], event: string): Promise<EarningRuleRow[]> =>
  campaignIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('earning_rules')
        .selectAll()
        .where('campaign_id', 'in', campaignIds)
        .where('event', '=', event)
        .where('active', '=', 1)
        .orderBy('seq')
        .execute();
