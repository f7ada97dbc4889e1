import type { Deps } from '../../../app/deps.js';
import {
  allValidityColumns,
  checkValidity,
  validityColumns,
  type ValidityColumns,
} from '../../../engine/validity/index.js';
import { isoNow } from '../../../lib/clock.js';
import { invalidPayload, notFound, type AppError } from '../../../lib/errors.js';
import { requireSegment } from '../../segments/index.js';
import { newId } from '../../../lib/ids.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { findProgram as findLoyaltyProgram } from '../programs/programs.service.js';
import { presentEarningRule, type EarningRuleView } from './earning-rules.presenter.js';
import * as repo from './earning-rules.repository.js';
import { removeAssignmentsOf, requireValidationRule } from '../../validation-rules/index.js';
import {
  eventProblem,
  type EarningRuleBody,
  type EarningRuleChanges,
  type EarningRulesListQuery,
} from './earning-rules.schemas.js';
import type { Db } from '../../../db/engine.js';

/**
 * Earning rules of a loyalty program (issue 11 point 5): POST (an array), GET list and one,
 * PUT, DELETE, enable and disable, under /v1/loyalties/{campaignId}/earning-rules.
 */
type ReadDeps = Pick<Deps, 'db'>;
type WriteDeps = Pick<Deps, 'db' | 'clock'>;

/** The program a path names (id or name): 404 `campaign` for an unknown one or a campaign of another type. */
const findProgram = async (db: Db, ref: string): Promise<Program> => (await findLoyaltyProgram({ db }, ref)).campaign;

type Program = { id: string; start_date: string | null; expiration_date: string | null };

async function findRule(db: Db, campaign: Program, ruleId: string): Promise<repo.EarningRuleRow> {
  const rule = await repo.findEarningRule(db, campaign.id, ruleId);
  if (!rule) throw notFound('earning_rule', ruleId);
  return rule;
}

const json = (value: unknown): string | null => (value == null ? null : JSON.stringify(value));

/** The columns the fields of a body set (absent fields are left out, for PUT). */
function changedColumns(body: EarningRuleChanges): Partial<repo.NewEarningRuleRow> {
  const out: Partial<repo.NewEarningRuleRow> = { ...validityColumns(body) };
  if (body.loyalty !== undefined) out.loyalty = JSON.stringify(body.loyalty);
  if (body.source !== undefined) out.banner = body.source.banner ?? null;
  if (body.active !== undefined) out.active = body.active ? 1 : 0;
  if (body.pending_points !== undefined) out.pending_days = body.pending_points?.period_value ?? null;
  if (body.expiration_rules !== undefined) out.expiration_rules = json(body.expiration_rules);
  if (body.validation_rule_id !== undefined) out.validation_rule_id = body.validation_rule_id;
  if (body.metadata !== undefined) out.metadata = JSON.stringify(body.metadata);
  return out;
}

function newRow(campaign: Program, body: EarningRuleBody, now: string): repo.NewEarningRuleRow {
  const columns = changedColumns(body);
  return {
    id: newId('ern_'),
    campaign_id: campaign.id,
    event: body.event,
    loyalty: JSON.stringify(body.loyalty),
    loyalty_tier_id: body.loyalty_tier?.id ?? null,
    segment: json(body.segment),
    custom_event: json(body.custom_event),
    banner: columns.banner ?? null,
    active: columns.active ?? 1,
    pending_days: columns.pending_days ?? null,
    expiration_rules: columns.expiration_rules ?? null,
    validation_rule_id: columns.validation_rule_id ?? null,
    // create-earning-rule: a rule without dates inherits its campaign's start and expiration dates.
    ...allValidityColumns({ start_date: campaign.start_date, expiration_date: campaign.expiration_date, ...columns }),
    metadata: columns.metadata ?? '{}',
    created_at: now,
    updated_at: null,
  };
}

/** 404 for a `validation_rule_id` that names no validation rule (each distinct one looked up once). */
async function requireValidationRules(db: Db, ids: ReadonlyArray<string | null | undefined>): Promise<void> {
  for (const id of new Set(ids)) if (typeof id === 'string') await requireValidationRule(db, id);
}

/** Every rule's validity problems, each under the rule's index, at once. */
function checkRulesValidity(rows: ValidityColumns[]): void {
  const problems = rows.flatMap((row, i) => {
    try {
      checkValidity(row, `[${i}].`);
      return [];
    } catch (error) {
      return [(error as AppError).details];
    }
  });
  if (problems.length > 0) throw invalidPayload(problems.join('; '));
}

/** POST /v1/loyalties/{campaignId}/earning-rules: every rule or none. */
export async function createEarningRules(
  deps: WriteDeps,
  campaignRef: string,
  body: EarningRuleBody[],
): Promise<EarningRuleView[]> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const campaign = await findProgram(trx, campaignRef);
    const rows = body.map((rule) => newRow(campaign, rule, now));
    checkRulesValidity(rows.map(allValidityColumns));
    await requireValidationRules(
      trx,
      rows.map((row) => row.validation_rule_id),
    );
    for (const id of new Set(body.flatMap((rule) => (rule.segment?.id ? [rule.segment.id] : []))))
      await requireSegment(trx, id);
    return (await repo.insertEarningRules(trx, rows)).map(presentEarningRule);
  });
}

/** GET /v1/loyalties/{campaignId}/earning-rules: newest first unless `order` says otherwise; `total`. */
export async function listEarningRules(deps: ReadDeps, campaignRef: string, query: EarningRulesListQuery) {
  const campaign = await findProgram(deps.db, campaignRef);
  const rows = await repo.listEarningRules(deps.db, {
    campaignId: campaign.id,
    sort: query.order ?? { field: 'created_at', direction: 'desc' },
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return listEnvelope('data', rows.map(presentEarningRule), {
    total: await repo.countEarningRules(deps.db, campaign.id),
  });
}

export async function getEarningRule(deps: ReadDeps, campaignRef: string, ruleId: string): Promise<EarningRuleView> {
  const campaign = await findProgram(deps.db, campaignRef);
  return presentEarningRule(await findRule(deps.db, campaign, ruleId));
}

/**
 * PUT: the fields given change, the others stay (`null` clears the nullable ones). The event
 * and its target stay; the merged rule is checked again (a tier event keeps FIXED points).
 */
export async function updateEarningRule(
  deps: WriteDeps,
  campaignRef: string,
  ruleId: string,
  body: EarningRuleChanges,
): Promise<EarningRuleView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const rule = await findRule(trx, await findProgram(trx, campaignRef), ruleId);
    const patch = changedColumns(body);
    const merged = { ...rule, ...patch };
    checkValidity(merged);
    const problem = eventProblem({
      event: rule.event,
      loyalty_tier: rule.loyalty_tier_id,
      segment: rule.segment,
      custom_event: rule.custom_event,
      loyalty: JSON.parse(merged.loyalty),
    });
    if (problem) throw invalidPayload(problem);
    await requireValidationRules(trx, [patch.validation_rule_id]);
    return presentEarningRule(await repo.updateEarningRule(trx, rule.id, { ...patch, updated_at: now }));
  });
}

/** POST .../enable and .../disable: `active` true or false. */
export const setEarningRuleActive = (
  deps: WriteDeps,
  campaignRef: string,
  ruleId: string,
  active: boolean,
): Promise<EarningRuleView> => updateEarningRule(deps, campaignRef, ruleId, { active });

/** DELETE: 204. Pending points the rule already gave stay as they are. */
export async function deleteEarningRule(deps: WriteDeps, campaignRef: string, ruleId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const rule = await findRule(trx, await findProgram(trx, campaignRef), ruleId);
    await repo.deleteEarningRule(trx, rule.id);
    await removeAssignmentsOf(trx, [rule.id]);
  });
}

/** Whether an earning rule with this id exists, in any program (validation rule assignments name it by id alone). */
export const earningRuleExists = async (db: Db, id: string): Promise<boolean> =>
  (await repo.findEarningRuleById(db, id)) !== undefined;
