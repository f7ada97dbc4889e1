import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_STACKING_RULES,
  noEffectSkips,
  selectStack,
  type StackingRules,
} from '../../src/engine/stacking/index.js';

/** A candidate named by its letter, at its position in the request, with a category (id and hierarchy) or none. */
interface Named {
  index: number;
  name: string;
  category: { id: string; hierarchy: number } | null;
}

const CATEGORIES: Record<string, number> = { gold: 1, silver: 2, bronze: 3, excl: 5, excl2: 4, joint: 6 };

/** 'a' (no category) or 'a:gold': one candidate per word, in requested order. */
const request = (spec: string): Named[] =>
  spec
    .split(' ')
    .filter((word) => word !== '')
    .map((word, index) => {
      const [name, category] = word.split(':') as [string, string | undefined];
      return {
        index,
        name,
        category: category === undefined ? null : { id: category, hierarchy: CATEGORIES[category] as number },
      };
    });

const rules = (over: Partial<StackingRules> = {}): StackingRules => ({
  ...DEFAULT_STACKING_RULES,
  applicable_redeemables_per_category_limit: 30,
  ...over,
});

/** The selection as text: the applied names in order, then each skipped name with its key. */
function select(spec: string, over: Partial<StackingRules> = {}) {
  const { applied, skipped } = selectStack(request(spec), rules(over));
  return {
    applied: applied.map((c) => c.name).join(' '),
    skipped: Object.fromEntries(skipped.map((s) => [s.candidate.name, s.key])),
  };
}

describe('selectStack', () => {
  const cases: Array<{
    name: string;
    spec: string;
    rules?: Partial<StackingRules>;
    applied: string;
    skipped?: Record<string, string>;
  }> = [
    { name: 'defaults keep the requested order', spec: 'a b c', applied: 'a b c' },
    { name: 'nothing to select', spec: '', applied: '' },
    {
      name: 'the applicable limit skips the rest in requested order',
      spec: 'a b c d e f g',
      applied: 'a b c d e',
      skipped: { f: 'applicable_redeemables_limit_exceeded', g: 'applicable_redeemables_limit_exceeded' },
    },
    {
      name: 'a limit of 1',
      spec: 'a b',
      rules: { applicable_redeemables_limit: 1 },
      applied: 'a',
      skipped: { b: 'applicable_redeemables_limit_exceeded' },
    },
    {
      name: 'the per-category limit (the reference default 1)',
      spec: 'a:gold b:gold c d:silver e:silver',
      rules: { applicable_redeemables_per_category_limit: 1 },
      applied: 'a c d',
      skipped: {
        b: 'applicable_redeemables_per_category_limit_exceeded',
        e: 'applicable_redeemables_per_category_limit_exceeded',
      },
    },
    {
      name: 'redeemables without a category have no per-category limit',
      spec: 'a b c',
      rules: { applicable_redeemables_per_category_limit: 1 },
      applied: 'a b c',
    },
    {
      name: 'a per-category skip leaves room under the applicable limit',
      spec: 'a:gold b:gold c d',
      rules: { applicable_redeemables_per_category_limit: 1, applicable_redeemables_limit: 3 },
      applied: 'a c d',
      skipped: { b: 'applicable_redeemables_per_category_limit_exceeded' },
    },
    {
      name: 'a category limit overrides the per-category limit for that category only',
      spec: 'a:gold b:gold c:gold d:silver e:silver',
      rules: { applicable_redeemables_per_category_limit: 1, applicable_redeemables_category_limits: { gold: 2 } },
      applied: 'a b d',
      skipped: {
        c: 'applicable_redeemables_per_category_limit_exceeded',
        e: 'applicable_redeemables_per_category_limit_exceeded',
      },
    },
    {
      name: 'CATEGORY_HIERARCHY: lower hierarchy first, ties and no category in requested order, no category last',
      spec: 'a b:bronze c:gold d:silver e:gold f',
      rules: { redeemables_sorting_rule: 'CATEGORY_HIERARCHY' },
      applied: 'c e d b a',
      skipped: { f: 'applicable_redeemables_limit_exceeded' },
    },
    {
      name: 'REQUESTED_ORDER ignores the hierarchy',
      spec: 'a:bronze b:gold',
      applied: 'a b',
    },
    {
      name: 'CATEGORY_HIERARCHY decides which are over the limit',
      spec: 'a:bronze b:silver c:gold',
      rules: { redeemables_sorting_rule: 'CATEGORY_HIERARCHY', applicable_redeemables_limit: 2 },
      applied: 'c b',
      skipped: { a: 'applicable_redeemables_limit_exceeded' },
    },
    {
      name: 'an exclusive redeemable applies alone',
      spec: 'a b:gold c:excl d',
      rules: { exclusive_categories: ['excl'] },
      applied: 'c',
      skipped: { a: 'exclusion_rules_not_met', b: 'exclusion_rules_not_met', d: 'exclusion_rules_not_met' },
    },
    {
      name: 'an exclusive redeemable applies with the joint ones, which follow it',
      spec: 'a:joint b c:excl d:joint',
      rules: { exclusive_categories: ['excl'], joint_categories: ['joint'] },
      applied: 'c a d',
      skipped: { b: 'exclusion_rules_not_met' },
    },
    {
      name: 'joint redeemables without an exclusive one stack as any other',
      spec: 'a:joint b c',
      rules: { joint_categories: ['joint'] },
      applied: 'a b c',
    },
    {
      name: 'the exclusive limit (reference default 1)',
      spec: 'a:excl b:excl2 c',
      rules: { exclusive_categories: ['excl', 'excl2'] },
      applied: 'a',
      skipped: { b: 'applicable_exclusive_redeemables_limit_exceeded', c: 'exclusion_rules_not_met' },
    },
    {
      name: 'exclusive ones together up to the exclusive limit',
      spec: 'a:excl b:excl2 c:excl2',
      rules: { exclusive_categories: ['excl', 'excl2'], applicable_exclusive_redeemables_limit: 3 },
      applied: 'a b',
      skipped: { c: 'applicable_exclusive_redeemables_per_category_limit_exceeded' },
    },
    {
      name: 'the exclusive per-category limit counts each exclusive category apart',
      spec: 'a:excl b:excl c:excl2',
      rules: {
        exclusive_categories: ['excl', 'excl2'],
        applicable_exclusive_redeemables_limit: 5,
        applicable_exclusive_redeemables_per_category_limit: 2,
      },
      applied: 'a b c',
    },
    {
      name: 'exclusive ones still count against the applicable limit',
      spec: 'a:excl b:excl c:joint',
      rules: {
        exclusive_categories: ['excl'],
        joint_categories: ['joint'],
        applicable_exclusive_redeemables_limit: 5,
        applicable_exclusive_redeemables_per_category_limit: 5,
        applicable_redeemables_limit: 2,
      },
      applied: 'a b',
      skipped: { c: 'applicable_redeemables_limit_exceeded' },
    },
    {
      name: 'joint ones keep the per-category limit beside an exclusive one',
      spec: 'a:excl b:joint c:joint',
      rules: {
        exclusive_categories: ['excl'],
        joint_categories: ['joint'],
        applicable_redeemables_per_category_limit: 1,
      },
      applied: 'a b',
      skipped: { c: 'applicable_redeemables_per_category_limit_exceeded' },
    },
    {
      name: 'CATEGORY_HIERARCHY picks which exclusive one applies',
      spec: 'a:excl b:excl2',
      rules: { exclusive_categories: ['excl', 'excl2'], redeemables_sorting_rule: 'CATEGORY_HIERARCHY' },
      applied: 'b',
      skipped: { a: 'applicable_exclusive_redeemables_limit_exceeded' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(select(c.spec, c.rules), { applied: c.applied, skipped: c.skipped ?? {} });
    });
  }

  it('answers the candidates themselves (extra fields kept) and skips in the order considered', () => {
    const candidates = request('a:bronze b:gold c:gold').map((c) => ({ ...c, code: `CODE-${c.name}` }));
    const result = selectStack(
      candidates,
      rules({ redeemables_sorting_rule: 'CATEGORY_HIERARCHY', applicable_redeemables_per_category_limit: 1 }),
    );
    assert.deepEqual(result, {
      applied: [candidates[1], candidates[0]],
      skipped: [{ candidate: candidates[2], key: 'applicable_redeemables_per_category_limit_exceeded' }],
    });
  });
});

describe('noEffectSkips', () => {
  const results = [
    { index: 0, category: null, no_effect: true },
    { index: 1, category: { id: 'gold', hierarchy: 1 }, no_effect: true },
    { index: 2, category: { id: 'silver', hierarchy: 2 }, no_effect: true },
    { index: 3, category: null, no_effect: false },
    { index: 4, category: { id: 'gold', hierarchy: 1 }, no_effect: false },
  ];
  const skipped = (over: Partial<StackingRules>) =>
    noEffectSkips(results, rules(over)).map((s) => `${s.candidate.index}:${s.key}`);

  it('REDEEM_ANYWAY (the default) skips nothing', () => assert.deepEqual(skipped({}), []));
  it('SKIP skips every redeemable without effect', () =>
    assert.deepEqual(skipped({ redeemables_no_effect_rule: 'SKIP' }), ['0:no_effect', '1:no_effect', '2:no_effect']));
  it('SKIP spares the redeem-anyway categories', () =>
    assert.deepEqual(skipped({ redeemables_no_effect_rule: 'SKIP', no_effect_redeem_anyway_categories: ['gold'] }), [
      '0:no_effect',
      '2:no_effect',
    ]));
  it('REDEEM_ANYWAY still skips the skip categories', () =>
    assert.deepEqual(skipped({ redeemables_no_effect_rule: 'REDEEM_ANYWAY', no_effect_skip_categories: ['silver'] }), [
      '2:no_effect',
    ]));
  it('a redeemable with an effect is never skipped', () =>
    assert.deepEqual(skipped({ redeemables_no_effect_rule: 'SKIP', no_effect_skip_categories: ['gold'] }), [
      '0:no_effect',
      '1:no_effect',
      '2:no_effect',
    ]));
});
