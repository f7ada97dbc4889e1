import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { listStacksTierIds } from '../campaigns/index.js';
import {
  type PipelineContext,
  type PlanBasis,
  type Qualifying,
  planEachAlone,
  planTogether,
} from '../redemptions/index.js';
import type { Candidate } from './qualification-candidates.service.js';
import { passesFilters } from './qualifications.filters.js';
import type { Qualified } from './qualifications.presenter.js';
import type { QualificationFilters } from './qualifications.schemas.js';

/**
 * A chunk of candidates checked against the request's customer and order: each voucher and
 * tier alone (planEachAlone: one load for the chunk), each promotion stack as its tiers
 * together (it qualifies when none of them is inapplicable and one applies). What qualifies
 * and passes the filters, in the chunk's order.
 */
export async function qualifyChunk(
  db: Kysely<Database>,
  ctx: PipelineContext,
  basis: PlanBasis,
  chunk: Candidate[],
  check: { mode: Exclude<Qualifying, null>; filters: QualificationFilters | null | undefined },
): Promise<Qualified[]> {
  const singles = chunk.filter((c) => c.object !== 'promotion_stack');
  const plans = await planEachAlone(
    db,
    ctx,
    basis,
    singles.map((c) => ({ object: c.object as 'voucher' | 'promotion_tier', id: c.id })),
    check.mode,
  );
  const planOf = new Map(singles.map((c, i) => [c, plans[i]]));
  const stacks = chunk.filter((c) => c.object === 'promotion_stack');
  const tierIds = await listStacksTierIds(
    db,
    stacks.map((c) => c.id),
  );
  for (const stack of stacks) {
    const tiers = (tierIds.get(stack.id) ?? []).map((id) => ({ object: 'promotion_tier' as const, id }));
    planOf.set(stack, await planTogether(db, ctx, basis, tiers, check.mode));
  }
  return chunk.flatMap((candidate): Qualified[] => {
    const plan = planOf.get(candidate);
    const first = plan?.applied[0];
    if (!plan || !first || plan.inapplicable.length > 0) return [];
    if (!passesFilters(check.filters, first.loaded, candidate)) return [];
    return [{ candidate, plan, applied: candidate.object === 'promotion_stack' ? null : first }];
  });
}
