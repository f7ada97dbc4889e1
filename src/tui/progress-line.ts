import type { JobView } from '../jobs/jobs.presenter.js';

/** A progress bar of `width` cells for 0..100. */
export function progressBar(progress: number, width = 20): string {
  const filled = Math.max(0, Math.min(width, Math.round((progress / 100) * width)));
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
}

/** Items per second since the job started (done and failed), or undefined before it starts. */
export function rateOf(job: JobView, nowMs: number): number | undefined {
  if (job.started_at === null) return undefined;
  const end = job.finished_at === null ? nowMs : Date.parse(job.finished_at);
  const seconds = (end - Date.parse(job.started_at)) / 1000;
  return seconds > 0 ? (job.done_count + job.failed_count) / seconds : undefined;
}

/** Seconds left at the pace so far, from the progress; undefined when unknown or ended. */
export function etaOf(job: JobView, nowMs: number): number | undefined {
  if (job.started_at === null || job.finished_at !== null || job.progress <= 0 || job.progress >= 100) return undefined;
  const elapsed = (nowMs - Date.parse(job.started_at)) / 1000;
  return (elapsed * (100 - job.progress)) / job.progress;
}

export const formatRate = (rate: number | undefined): string =>
  rate === undefined ? '-' : `${Math.round(rate).toLocaleString('en-US')}/s`;

export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined) return '-';
  const s = Math.round(seconds);
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
}

/** One line for a command's stderr while its job runs. */
export const progressLine = (job: JobView, nowMs: number): string =>
  `${job.type} ${progressBar(job.progress)} ${String(job.progress).padStart(3)}%  ${job.done_count} done, ${job.failed_count} failed  ${formatRate(rateOf(job, nowMs))}  eta ${formatEta(etaOf(job, nowMs))}`;

/** A progress reporter that redraws one stderr line, only when stderr is a terminal. */
export function stderrProgress(): { update(job: JobView): void; end(): void } {
  const tty = process.stderr.isTTY === true;
  let drawn = false;
  return {
    update(job) {
      if (!tty) return;
      process.stderr.write(`\r${progressLine(job, Date.now())}\x1b[K`);
      drawn = true;
    },
    end() {
      if (drawn) process.stderr.write('\n');
    },
  };
}
