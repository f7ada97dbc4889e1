import { JobType } from '../modules/jobs/job-types.js';

/**
 * The job types the runner can run: the worker module that does one portion, and how big a
 * first portion is. A new job type (order import) adds one entry and one worker file.
 */
export interface JobTypeEntry {
  worker: string;
  /** Items in the first portion; later portions adapt to the target duration. */
  firstPortion: number;
}

const worker = (name: string): string => new URL(`./workers/${name}.worker.ts`, import.meta.url).href;

export const jobRegistry: Record<string, JobTypeEntry> = {
  [JobType.vouchersGenerate]: { worker: worker('vouchers-generate'), firstPortion: 1000 },
  [JobType.vouchersImport]: { worker: worker('vouchers-import'), firstPortion: 200 },
  [JobType.vouchersDelete]: { worker: worker('vouchers-delete'), firstPortion: 1000 },
  [JobType.vouchersUpdate]: { worker: worker('vouchers-update'), firstPortion: 1000 },
};

/** Portion sizes adapt so that each portion's transaction lasts about this long. */
export const TARGET_PORTION_MS = 80;
export const MIN_PORTION = 10;
export const MAX_PORTION = 20_000;

/** The next portion size, from how long the last one held the database. */
export function nextPortionSize(current: number, items: number, ms: number): number {
  if (items < current || ms <= 0) return current;
  const scaled = Math.round(current * Math.min(2, Math.max(0.5, TARGET_PORTION_MS / ms)));
  return Math.min(MAX_PORTION, Math.max(MIN_PORTION, scaled));
}
