import type { Tx } from '../../db/engine.js';
import {
  capacity,
  checkFeasibility,
  infeasibleDetails,
  templateGlob,
  type CodeTemplate,
} from '../../engine/codes/index.js';
import { invalidCodeConfig } from '../campaigns/index.js';
import { JobType } from '../../lib/enums.js';
import { listOpenJobs } from '../../jobs/jobs.service.js';
import * as repo from './vouchers.repository.js';

/** What an unfinished generation job keeps in its payload about its codes. */
export interface CodeReservation {
  glob: string;
}

/**
 * Checks, before anything is written, that `requested` more codes fit in the template's
 * space: at most half of what is left after the codes already taken and those reserved by
 * unfinished generation jobs of the same template. When the space dwarfs every voucher that
 * could exist (the usual case), the count of taken codes is skipped.
 */
export async function checkCodeSpace(trx: Tx, template: CodeTemplate, requested: number): Promise<void> {
  const glob = templateGlob(template);
  const space = capacity(template);
  const open = await listOpenJobs<CodeReservation>(trx, JobType.vouchersGenerate);
  const reservedAll = open.reduce((sum, job) => sum + job.remaining, 0);
  const upperBound = BigInt((await repo.maxVoucherSeq(trx)) + reservedAll + requested);
  if (space >= 2n * upperBound) return;
  const reservedSame = open.filter((job) => job.payload.glob === glob).reduce((sum, job) => sum + job.remaining, 0);
  const taken = BigInt((await repo.countCodesMatching(trx, glob)) + reservedSame);
  const feasibility = checkFeasibility(space, taken, BigInt(requested));
  if (!feasibility.ok) throw invalidCodeConfig(infeasibleDetails(BigInt(requested), feasibility));
}
