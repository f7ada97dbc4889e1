import type { Deps } from '../../app/deps.js';
import { DEFAULT_STACKING_RULES, type StackingRules } from '../../engine/stacking/index.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, invalidPayload, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { listEnvelope } from '../../lib/pagination.js';
import { categoriesById } from '../categories/index.js';
import * as repo from './stacking-rules.repository.js';
import type { StackingRulesChange } from './stacking-rules.schemas.js';
import { announceChange, deepFreeze, versionedRead } from '../../db/versioned-cache.js';
import type { Db, Tx } from '../../db/engine.js';

/**
 * The project's stacking rules (voucherify-facts 2.12): one stored row, or the reference's
 * defaults while none is stored. The redemption pipeline reads them on every request
 * (getStackingRules); GET/PUT /v1/stacking-rules, the management API and `promo
 * stacking-rules` read and change them.
 */
type RulesDeps = Pick<Deps, 'db' | 'clock'>;

const CATEGORY_LISTS = [
  'initial_amount_mode_categories',
  'discounted_amount_mode_categories',
  'exclusive_categories',
  'joint_categories',
  'no_effect_skip_categories',
  'no_effect_redeem_anyway_categories',
] as const;

const rulesOf = (row: repo.StackingRulesRow | undefined): StackingRules =>
  row
    ? { ...DEFAULT_STACKING_RULES, ...(JSON.parse(row.rules) as Partial<StackingRules>) }
    : { ...DEFAULT_STACKING_RULES };

/**
 * The rules every stacked validation and redemption applies: one primary-key read, kept in
 * memory until they change (db/versioned-cache.ts: SQLite's next commit; PostgreSQL's announced
 * change or time to live). Shared, hence frozen.
 */
export const getStackingRules: (db: Db) => Promise<StackingRules> = versionedRead('stacking_rules', async (db) =>
  deepFreeze(rulesOf(await repo.findRules(db))),
);

/** The stored row as the management API answers it (ManagementProjectsStackingRules). */
export const presentRecord = (row: repo.StackingRulesRow) => ({
  id: row.id,
  ...rulesOf(row),
  created_at: row.created_at,
  updated_at: row.updated_at,
});
export type StackingRulesRecord = ReturnType<typeof presentRecord>;

const overlap = (a: string[], b: string[]): string | undefined => a.find((id) => b.includes(id));

/** The checks that tie fields together, on the merged rules (the reference's descriptions). */
async function checkRules(db: Db, rules: StackingRules): Promise<void> {
  const problems: string[] = [];
  if (rules.applicable_redeemables_limit > rules.redeemables_limit)
    problems.push('applicable_redeemables_limit must be at most redeemables_limit');
  if (rules.applicable_redeemables_per_category_limit > rules.applicable_redeemables_limit) {
    problems.push('applicable_redeemables_per_category_limit must be at most applicable_redeemables_limit');
  }
  if (rules.applicable_exclusive_redeemables_per_category_limit > rules.applicable_exclusive_redeemables_limit) {
    problems.push(
      'applicable_exclusive_redeemables_per_category_limit must be at most applicable_exclusive_redeemables_limit',
    );
  }
  const both = overlap(rules.exclusive_categories, rules.joint_categories);
  if (both !== undefined) problems.push(`category ${both} cannot be in both exclusive_categories and joint_categories`);
  const noEffect = overlap(rules.no_effect_skip_categories, rules.no_effect_redeem_anyway_categories);
  if (noEffect !== undefined)
    problems.push(
      `category ${noEffect} cannot be in both no_effect_skip_categories and no_effect_redeem_anyway_categories`,
    );
  const mode = overlap(rules.initial_amount_mode_categories, rules.discounted_amount_mode_categories);
  if (mode !== undefined)
    problems.push(
      `category ${mode} cannot be in both initial_amount_mode_categories and discounted_amount_mode_categories`,
    );
  if (problems.length > 0) throw invalidPayload(problems.join('; '));
  const named = [
    ...new Set([
      ...CATEGORY_LISTS.flatMap((list) => rules[list]),
      ...Object.keys(rules.applicable_redeemables_category_limits ?? {}),
    ]),
  ];
  const known = await categoriesById(db, named);
  const unknown = named.find((id) => !known.has(id));
  if (unknown !== undefined) throw notFound('category', unknown);
}

/** The field of the stored rules that names the category, if one does (the category seam's check). */
export async function fieldNamingCategory(db: Db, categoryId: string): Promise<string | undefined> {
  const rules = rulesOf(await repo.findRules(db));
  if (categoryId in (rules.applicable_redeemables_category_limits ?? {}))
    return 'applicable_redeemables_category_limits';
  return CATEGORY_LISTS.find((list) => rules[list].includes(categoryId));
}

/** The rules with a change applied (lists deduplicated), checked. */
async function changed(db: Db, current: StackingRules, change: StackingRulesChange): Promise<StackingRules> {
  // Only the rules' own fields: a body's other fields are dropped.
  const given = Object.fromEntries(
    Object.entries(change).filter(([key, value]) => value !== undefined && key in DEFAULT_STACKING_RULES),
  ) as Partial<StackingRules>;
  const rules: StackingRules = { ...current, ...given };
  for (const list of CATEGORY_LISTS) rules[list] = [...new Set(rules[list])];
  await checkRules(db, rules);
  return rules;
}

/** Writes the rules, creating the row when there is none; answers the row as stored. */
async function store(
  trx: Tx,
  row: repo.StackingRulesRow | undefined,
  rules: StackingRules,
  now: string,
): Promise<repo.StackingRulesRow> {
  await announceChange(trx, 'stacking_rules');
  if (row) await repo.updateRules(trx, JSON.stringify(rules), now);
  else
    await repo.insertRules(trx, {
      singleton: 1,
      id: newId('stk_'),
      rules: JSON.stringify(rules),
      created_at: now,
      updated_at: null,
    });
  return (await repo.findRules(trx)) as repo.StackingRulesRow;
}

/** GET /v1/stacking-rules and `promo stacking-rules show`. */
export const showStackingRules = (deps: Pick<Deps, 'db'>): Promise<StackingRules> => getStackingRules(deps.db);

/** PUT /v1/stacking-rules and `promo stacking-rules set`: the fields given change; answers the whole rules. */
export async function changeStackingRules(deps: RulesDeps, change: StackingRulesChange): Promise<StackingRules> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findRulesForChange(trx);
    return rulesOf(await store(trx, row, await changed(trx, rulesOf(row), change), now));
  });
}

/** GET /management/v1/projects/{projectId}/stacking-rules: the stored rules (none while the defaults apply). */
export async function listStackingRulesRecords(deps: Pick<Deps, 'db'>) {
  const row = await repo.findRules(deps.db);
  const data = row ? [presentRecord(row)] : [];
  return listEnvelope('data', data, { total: data.length });
}

/** POST /management/v1/projects/{projectId}/stacking-rules: 409 stacking_rules_exist once stored. */
export async function createStackingRulesRecord(
  deps: RulesDeps,
  change: StackingRulesChange,
): Promise<StackingRulesRecord> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findRules(trx);
    if (row) throw new AppError('stacking_rules_exist', `The project already has stacking rules ${row.id}`);
    return presentRecord(await store(trx, undefined, await changed(trx, rulesOf(undefined), change), now));
  });
}

async function requireRecord(db: Db, id: string, find = repo.findRules): Promise<repo.StackingRulesRow> {
  const row = await find(db);
  if (!row || row.id !== id) throw notFound('stacking_rules', id);
  return row;
}

/** GET /management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}. */
export const getStackingRulesRecord = async (deps: Pick<Deps, 'db'>, id: string): Promise<StackingRulesRecord> =>
  presentRecord(await requireRecord(deps.db, id));

/** PUT /management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}. */
export async function updateStackingRulesRecord(
  deps: RulesDeps,
  id: string,
  change: StackingRulesChange,
): Promise<StackingRulesRecord> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const row = await requireRecord(trx, id, repo.findRulesForChange);
    return presentRecord(await store(trx, row, await changed(trx, rulesOf(row), change), now));
  });
}

/** DELETE /management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}: the defaults apply again. */
export async function deleteStackingRulesRecord(deps: RulesDeps, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireRecord(trx, id);
    await announceChange(trx, 'stacking_rules');
    await repo.deleteRules(trx);
  });
}
