import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { parseIsoDate } from '../../lib/dates.js';
import { categoriesById } from '../categories/index.js';
import {
  unchangedFigures,
  planBasisOf,
  PREVIEWED,
  type PipelineContext,
  type PlanBasis,
  type StackableBody,
  orderOfValidation,
} from '../redemptions/index.js';
import { getStackingRules } from '../stacking-rules/index.js';
import { assignmentsOfObjects } from '../validation-rules/index.js';
import { walkCandidates, type Candidate, type SourceName, type WalkInput } from './qualification-candidates.service.js';
import { qualifyChunk } from './qualification-check.service.js';
import { prunedSources } from './qualifications.filters.js';
import { appliedDiscountOf, expansionKeys, presentQualified, type Qualified } from './qualifications.presenter.js';
import { DEFAULT_LIMIT, MAX_LIMIT, type QualificationBody, type SupportedScenario } from './qualifications.schemas.js';

/**
 * POST /v1/qualifications and /client/v1/qualifications (the SDK's
 * `qualifications.checkEligibility` and client-side `qualifications`): the redeemables the
 * scenario names, newest first, each validated alone against the request's customer and order
 * through the redemption pipeline's read-only stages (PREVIEWED: nothing is written, not even
 * the customer), and the applicable ones answered a page at a time. Candidates are read in SQL
 * a chunk at a time (a page's worth first, then twice as many each time, up to CHUNK) and
 * checked until the page is settled, at most MAX_SCANNED per request; every
 * read runs in the same tick, so in the reader's one snapshot (db/sqlite/read-snapshot.ts).
 */
export const CHUNK = 50;
export const MAX_SCANNED = 1000;

type QualificationDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

const SOURCES: Record<SupportedScenario, SourceName[]> = {
  ALL: ['wallet', 'tiers', 'standalone'],
  CUSTOMER_WALLET: ['wallet'],
  AUDIENCE_ONLY: ['wallet', 'tiers', 'standalone'],
  PROMOTION_STACKS: ['stacks'],
};

/** The body's scenario: its schema lets only the supported ones through. */
const scenarioOf = (body: QualificationBody): SupportedScenario => (body.scenario ?? 'ALL') as SupportedScenario;

interface Scan {
  accepted: Qualified[];
  /** The scan stopped at MAX_SCANNED with candidates left. */
  capped: boolean;
  last: Candidate | null;
}

/** Candidates checked a chunk at a time until one more than the page is applicable, or MAX_SCANNED were checked. */
async function scan(
  deps: QualificationDeps,
  ctx: PipelineContext,
  basis: PlanBasis,
  walk: WalkInput,
  body: QualificationBody,
  limit: number,
): Promise<Scan> {
  const mode = body.scenario === 'AUDIENCE_ONLY' ? 'AUDIENCE' : 'ORDER';
  const filters = body.options?.filters;
  const result: Scan = { accepted: [], capped: false, last: null };
  for await (const chunk of walkCandidates(deps.db, walk, { first: limit + 1, max: CHUNK, budget: MAX_SCANNED })) {
    if (chunk.length === 0) return { ...result, capped: true };
    result.accepted.push(...(await qualifyChunk(deps.db, ctx, basis, chunk, { mode, filters })));
    result.last = chunk.at(-1) ?? null;
    if (pageIsSettled(result.accepted, limit)) return result;
  }
  return result;
}

/** Enough is known for the page: one more than it, past the run of the instant its last holds (or more than MAX_LIMIT). */
function pageIsSettled(accepted: Qualified[], limit: number): boolean {
  if (accepted.length <= limit) return false;
  return accepted.length > MAX_LIMIT || instantOf(accepted.at(-1)) !== instantOf(accepted[limit - 1]);
}

const instantOf = (q: Qualified | undefined): string | undefined => q?.candidate.created_at;

/**
 * The page: `limit` qualified redeemables, newest first. The cursor is a created_at, so a page
 * never ends inside a run of one instant that goes on past it: it ends before the run, or, when
 * the run opens the page, holds the whole run (at most MAX_LIMIT; the reference lets the API
 * decide the actual number). The cursor is the last answered one's created_at, or the last
 * candidate checked when MAX_SCANNED stopped the scan.
 */
function pageOf({ accepted, capped, last }: Scan, limit: number) {
  let page = accepted.slice(0, limit);
  const boundary = instantOf(accepted[limit - 1]);
  if (accepted.length > limit && instantOf(accepted[limit]) === boundary) {
    const start = page.findIndex((q) => instantOf(q) === boundary);
    page = start > 0 ? page.slice(0, start) : accepted.filter((q) => instantOf(q) === boundary).slice(0, MAX_LIMIT);
  }
  const more = page.length < accepted.length;
  const cursor = more ? instantOf(page.at(-1)) : capped ? last?.created_at : undefined;
  return { page, hasMore: more || capped, cursor };
}

function sorted(page: Qualified[], rule: string | null | undefined): Qualified[] {
  if (rule !== 'BEST_DEAL' && rule !== 'LEAST_DEAL') return page;
  const sign = rule === 'BEST_DEAL' ? -1 : 1;
  return [...page].sort((a, b) => sign * (appliedDiscountOf(a) - appliedDiscountOf(b)));
}

async function expansionsOf(deps: QualificationDeps, page: Qualified[], expand: readonly string[]) {
  const { objectIds, categoryIds } = expansionKeys(page);
  return {
    redeemable: expand.includes('redeemable'),
    categories: expand.includes('category') ? await categoriesById(deps.db, categoryIds) : null,
    assignments: expand.includes('validation_rules') ? await assignmentsOfObjects(deps.db, objectIds) : null,
  };
}

export async function checkEligibility(deps: QualificationDeps, actor: Actor, body: QualificationBody) {
  const scenario = scenarioOf(body);
  const ctx: PipelineContext = {
    actor,
    at: isoNow(deps.clock),
    seams: deps.seams,
    rules: await getStackingRules(deps.db),
  };
  const order = scenario === 'AUDIENCE_ONLY' ? undefined : (body.order ?? undefined);
  const stackable = { redeemables: [], customer: body.customer ?? undefined, order } as unknown as StackableBody;
  const basis = await planBasisOf(deps.db, ctx, stackable, PREVIEWED);
  const options = body.options ?? {};
  const limit = options.limit ?? DEFAULT_LIMIT;
  const walk: WalkInput = {
    sources: prunedSources(SOURCES[scenario], options.filters),
    customerId: basis.customer?.id ?? null,
    now: ctx.at,
    createdBefore: options.starting_after ? parseIsoDate(options.starting_after) : null,
  };
  const { page, hasMore, cursor } = pageOf(await scan(deps, ctx, basis, walk, body, limit), limit);
  const expansions = await expansionsOf(deps, page, options.expand ?? []);
  const data = sorted(page, options.sorting_rule).map((q) => presentQualified(q, expansions));
  const unchanged = basis.order
    ? orderOfValidation(
        { ...basis, applied: [], inapplicable: [], skipped: [], final: null },
        unchangedFigures(basis.order),
      )
    : null;
  return {
    redeemables: {
      object: 'list' as const,
      data_ref: 'data' as const,
      data,
      total: data.length,
      has_more: hasMore,
      ...(cursor ? { more_starting_after: cursor } : {}),
    },
    tracking_id: body.tracking_id ?? basis.customer?.source_id ?? null,
    ...(unchanged ? { order: unchanged } : {}),
    stacking_rules: ctx.rules,
  };
}
