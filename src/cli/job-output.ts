import { once } from 'node:events';
import type { Deps } from '../app/deps.js';
import { jobRegistry } from '../root/job-registry.js';
import { failuresNdjson, openJobFailures } from '../jobs/failures.service.js';
import { getJobView } from '../jobs/jobs.service.js';

/** Writes to stdout, waiting when its buffer is full: a list of any length streams through. */
async function writeOut(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

/**
 * Every failure of a job, streamed page by page: `  <key>: <reason>` lines, or with `json`
 * the NDJSON lines GET /v1/async-actions/{id}/failures answers. 404 for an unknown job.
 */
export async function printFailures(deps: Deps, jobId: string, json = false): Promise<void> {
  const pages = await openJobFailures(deps, jobRegistry, jobId);
  const key = jobRegistry.types[(await getJobView(deps, jobId)).type]?.failureKey ?? 'key';
  for await (const page of pages) {
    await writeOut(
      json
        ? failuresNdjson(page)
        : page
            .map(
              (failure) =>
                `  ${failure.row === undefined ? '' : `row ${failure.row}: `}${failure[key] ?? `(no ${key})`}: ${failure.reason}\n`,
            )
            .join(''),
    );
  }
}
