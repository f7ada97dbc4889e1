import type { Deps } from '../../app/deps.js';
import { parseApplicable, parseRules, type ApplicableEntry } from '../../engine/rules/index.js';
import { isoNow } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { listEnvelope } from '../../lib/pagination.js';
import { presentCreatedRule, presentRule, type RuleView } from './validation-rules.presenter.js';
import * as repo from './validation-rules.repository.js';
import type { CreateRuleBody, RulesListQuery, UpdateRuleBody } from './validation-rules.schemas.js';
import type { Db } from '../../db/engine.js';

type RuleDeps = Pick<Deps, 'db' | 'clock'>;

/** An applicable_to entry as stored and answered: the limits only when set. */
const entryJson = (entry: ApplicableEntry) => ({
  object: entry.object,
  id: entry.id,
  effect: entry.effect,
  ...(entry.quantity_limit === null ? {} : { quantity_limit: entry.quantity_limit }),
  ...(entry.aggregated_quantity_limit === null ? {} : { aggregated_quantity_limit: entry.aggregated_quantity_limit }),
});

/** `applicable_to` as stored (the schema checked it): every list present, absent entries none. */
function applicableJson(value: unknown): string {
  const parsed = parseApplicable(value, []);
  return JSON.stringify({
    excluded: parsed.excluded.map(entryJson),
    included: parsed.included.map(entryJson),
    included_all: parsed.included_all,
  });
}

/** The rules tree as stored and answered (the schema checked it). */
function rulesJson(value: unknown): string {
  const parsed = parseRules(value);
  if (!parsed.ok) throw new Error(`rules passed the schema but not the parser: ${parsed.errors.join('; ')}`);
  return JSON.stringify(parsed.json);
}

/** The rule behind a path id, or 404. */
export async function requireRule(db: Db, id: string): Promise<repo.RuleRow> {
  const row = await repo.findRuleById(db, id);
  if (!row) throw notFound('validation_rules', id);
  return row;
}

async function present(db: Db, rows: repo.RuleRow[]): Promise<RuleView[]> {
  const counts = await repo.countAssignmentsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => presentRule(row, counts.get(row.id) ?? 0));
}

const presentOne = async (db: Db, row: repo.RuleRow): Promise<RuleView> => (await present(db, [row]))[0] as RuleView;

/** POST /v1/validation-rules. */
export async function createRule(deps: RuleDeps, body: CreateRuleBody): Promise<ReturnType<typeof presentCreatedRule>> {
  const row: repo.RuleRow = {
    seq: 0,
    id: newId('val_'),
    name: body.name,
    rules: rulesJson(body.rules ?? {}),
    applicable_to: applicableJson(body.applicable_to),
    error_message: body.error?.message ?? null,
    type: body.type ?? 'expression',
    context_type: body.context_type ?? 'global',
    created_at: isoNow(deps.clock),
    updated_at: null,
  };
  const { seq: _seq, ...insert } = row;
  await deps.db.transaction().execute((trx) => repo.insertRule(trx, insert));
  return presentCreatedRule(row, {
    rules: body.rules != null && Object.keys(body.rules).length > 0,
    applicable_to: body.applicable_to as { excluded?: unknown; included?: unknown } | null | undefined,
  });
}

/** GET /v1/validation-rules/{id}. */
export const getRule = async (deps: Pick<Deps, 'db'>, id: string): Promise<RuleView> =>
  presentOne(deps.db, await requireRule(deps.db, id));

/** PUT /v1/validation-rules/{id}: the fields given change; `rules` and `applicable_to` are replaced whole. */
export async function updateRule(deps: RuleDeps, id: string, body: UpdateRuleBody): Promise<RuleView> {
  return deps.db.transaction().execute(async (trx) => {
    await requireRule(trx, id);
    await repo.updateRule(trx, id, {
      ...(body.name != null ? { name: body.name } : {}),
      ...(body.rules != null ? { rules: rulesJson(body.rules) } : {}),
      ...(body.applicable_to !== undefined ? { applicable_to: applicableJson(body.applicable_to) } : {}),
      ...(body.error !== undefined ? { error_message: body.error?.message ?? null } : {}),
      ...(body.type != null ? { type: body.type } : {}),
      ...(body.context_type != null ? { context_type: body.context_type } : {}),
      updated_at: isoNow(deps.clock),
    });
    return presentOne(trx, await requireRule(trx, id));
  });
}

/** DELETE /v1/validation-rules/{id}: the rule and its assignments (the reference refuses nothing). */
export async function deleteRule(deps: Pick<Deps, 'db'>, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireRule(trx, id);
    await repo.deleteRule(trx, id);
  });
}

/** GET /v1/validation-rules: by created_at, updated_at or name (oldest first by default), within start_date..end_date of creation. */
export async function listRules(deps: Pick<Deps, 'db'>, query: RulesListQuery) {
  const filter = { createdFrom: query.start_date, createdTo: query.end_date };
  const order = query.order ?? { field: 'created_at', direction: 'asc' };
  const rows = await repo.listRules(deps.db, filter, {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
    order,
  });
  return listEnvelope('data', await present(deps.db, rows), { total: await repo.countRules(deps.db, filter) });
}
