import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import type { RuleObjectType } from '../../lib/enums.js';
import { duplicateFound, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { listEnvelope } from '../../lib/pagination.js';
import { presentRuleAssignment, type RuleAssignmentView } from './validation-rules.presenter.js';
import * as repo from './validation-rules.repository.js';
import type {
  AssignmentsListQuery,
  CreateRuleAssignmentBody,
  CreateAssignmentQuery,
  RuleAssignmentsQuery,
} from './validation-rules.schemas.js';
import { requireRule } from './validation-rules.service.js';
import type { Db, Tx } from '../../db/engine.js';

type AssignDeps = Pick<Deps, 'db' | 'clock'>;

/**
 * The id of the object an assignment names (a voucher may be named by its code), or undefined
 * when there is none. The objects live in modules above this one, so the caller (the route,
 * which may reach every service) supplies the lookup.
 */
export type RelatedObjectLookup = (db: Db, type: RuleObjectType, idOrKey: string) => Promise<string | undefined>;

/** The object of an assignment body, in either of its forms. */
function targetOf(body: CreateRuleAssignmentBody): { type: RuleObjectType; id: string } {
  if (body.voucher !== undefined) return { type: 'voucher', id: body.voucher };
  if (body.campaign !== undefined) return { type: 'campaign', id: body.campaign };
  if (body.promotion_tier !== undefined) return { type: 'promotion_tier', id: body.promotion_tier };
  return { type: body.related_object_type ?? 'voucher', id: body.related_object_id as string };
}

const assignmentRow = (ruleId: string, type: RuleObjectType, objectId: string, at: string): repo.RuleAssignmentRow => ({
  seq: 0,
  id: newId('asgm_'),
  rule_id: ruleId,
  related_object_type: type,
  related_object_id: objectId,
  created_at: at,
});

/**
 * POST /v1/validation-rules/{id}/assignments: 404 for an unknown rule or object, 409 when the
 * rule is already assigned to the object, unless `force=true` replaces that assignment.
 */
export async function assignRule(
  deps: AssignDeps,
  ruleId: string,
  body: CreateRuleAssignmentBody,
  query: CreateAssignmentQuery,
  lookup: RelatedObjectLookup,
): Promise<RuleAssignmentView> {
  const target = targetOf(body);
  return deps.db.transaction().execute(async (trx) => {
    await requireRule(trx, ruleId);
    const objectId = await lookup(trx, target.type, target.id);
    if (objectId === undefined) throw notFound(target.type, target.id);
    const existing = await repo.findAssignmentOf(trx, ruleId, objectId);
    if (existing && query.force !== 'true')
      throw duplicateFound('validation_rules_assignment', 'related_object_id', objectId);
    if (existing) await repo.deleteRuleAssignmentRow(trx, existing.id);
    const row = assignmentRow(ruleId, target.type, objectId, isoNow(deps.clock));
    const { seq: _seq, ...insert } = row;
    await repo.insertRuleAssignmentRows(trx, [insert]);
    return presentRuleAssignment(row);
  });
}

/**
 * `validation_rules: [ids]` of a voucher or campaign being created or updated, inside its
 * transaction: each rule must exist (404), and one already assigned stays as it is.
 */
export async function assignRulesTo(
  trx: Tx,
  object: { type: RuleObjectType; id: string },
  ruleIds: readonly string[],
  at: string,
): Promise<void> {
  const unique = [...new Set(ruleIds)];
  const found = new Set((await repo.findRulesByIds(trx, unique)).map((row) => row.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound('validation_rules', missing);
  const held = new Set((await repo.listAssignmentsOfObjects(trx, [object.id])).map((row) => row.rule_id));
  const rows = unique
    .filter((id) => !held.has(id))
    .map((id) => {
      const { seq: _seq, ...insert } = assignmentRow(id, object.type, object.id, at);
      return insert;
    });
  await repo.insertRuleAssignmentRows(trx, rows);
}

/** The assignments of these objects (a page of vouchers, a campaign's tiers): one query, by object id. */
export async function assignmentsOfObjects(
  db: Db,
  objectIds: readonly string[],
): Promise<Map<string, RuleAssignmentView[]>> {
  const out = new Map<string, RuleAssignmentView[]>();
  for (const row of await repo.listAssignmentsOfObjects(db, [...new Set(objectIds)])) {
    out.set(row.related_object_id, [...(out.get(row.related_object_id) ?? []), presentRuleAssignment(row)]);
  }
  return out;
}

/** An object's assignments as the voucher and the tier answer them (a list with `total`). */
export const assignmentsList = (views: RuleAssignmentView[] | undefined) =>
  listEnvelope('data', views ?? [], { total: views?.length ?? 0 });

/** DELETE /v1/validation-rules/{id}/assignments/{assignmentId}. */
export async function deleteRuleAssignmentRow(
  deps: Pick<Deps, 'db'>,
  ruleId: string,
  assignmentId: string,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireRule(trx, ruleId);
    if (!(await repo.findAssignment(trx, ruleId, assignmentId)))
      throw notFound('validation_rules_assignment', assignmentId);
    await repo.deleteRuleAssignmentRow(trx, assignmentId);
  });
}

const pageOf = (query: RuleAssignmentsQuery) => ({
  limit: query.limit,
  offset: (query.page - 1) * query.limit,
  direction: query.order?.direction ?? ('asc' as const),
});

/** GET /v1/validation-rules/{id}/assignments: an unknown rule has none (the reference answers an empty list). */
export async function listRuleAssignments(deps: Pick<Deps, 'db'>, ruleId: string, query: RuleAssignmentsQuery) {
  const rows = await repo.listRuleAssignmentRows(deps.db, { ruleId }, pageOf(query));
  return listEnvelope('data', rows.map(presentRuleAssignment), {
    total: await repo.countRuleAssignmentRows(deps.db, { ruleId }),
  });
}

/** GET /v1/validation-rules-assignments: every assignment, or those of one object and/or one rule. */
export async function listAllAssignments(deps: Pick<Deps, 'db'>, query: AssignmentsListQuery) {
  const filter = { ruleId: query.rule, objectId: query.related_object_id };
  const rows = await repo.listRuleAssignmentRows(deps.db, filter, pageOf(query));
  return listEnvelope('data', rows.map(presentRuleAssignment), {
    total: await repo.countRuleAssignmentRows(deps.db, filter),
  });
}
