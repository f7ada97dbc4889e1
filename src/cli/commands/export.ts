import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { jobRegistry } from '../../root/job-registry.js';
import { runJobToEnd } from '../../jobs/follow.js';
import { getAsyncAction } from '../../jobs/jobs.service.js';
import { internalActor } from '../../lib/actor.js';
import { EXPORTED_OBJECTS } from '../../lib/enums.js';
import { AppError, UsageError } from '../../lib/errors.js';
import { flagsSchema, text } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';
import { createExport, exportJobId, getExport, openExportFile } from '../../modules/exports/index.js';
import { stderrProgress } from '../../tui/progress-line.js';
import { requireFolderOf } from '../mistakes.js';
import { printJson, runWithDeps, type CommonOptions } from '../run.js';

const exportFlags = flagsSchema({ fields: text(), order: text(), filters: text(), out: text() });

/** The flags as the body of POST /v1/exports: `--fields a,b`, `--order -created_at`, `--filters '<JSON>'`. */
function bodyOf(type: string, flags: Record<string, string | undefined>): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  if (flags.fields !== undefined)
    parameters.fields = flags.fields
      .split(',')
      .map((field) => field.trim())
      .filter((field) => field !== '');
  if (flags.order !== undefined) parameters.order = flags.order;
  if (flags.filters !== undefined) {
    try {
      parameters.filters = JSON.parse(flags.filters) as unknown;
    } catch {
      throw new UsageError('--filters must be a JSON object, as parameters.filters of POST /v1/exports');
    }
  }
  return { exported_object: type, ...(Object.keys(parameters).length > 0 ? { parameters } : {}) };
}

/**
 * `promo export <type>`: what POST /v1/exports does, with its EXPORT job run in this process
 * (progress on stderr), then the CSV copied to `--out` or streamed to stdout. With `--json`
 * the export object is printed instead (the CSV goes only to `--out`).
 */
export const exportCommand = (type: string, options: CommonOptions & Record<string, unknown>) =>
  runWithDeps(options, async (deps) => {
    if (!(EXPORTED_OBJECTS as readonly string[]).includes(type))
      throw new UsageError(`<type> must be one of: ${EXPORTED_OBJECTS.join(', ')}`);
    const flags = parse(exportFlags, options, 'flags') as Record<string, string | undefined>;
    // Before the job runs, not after: a folder that is not there is known at once.
    if (flags.out !== undefined) requireFolderOf(flags.out);
    const created = await createExport(deps, bodyOf(type, flags), internalActor());
    const progress = stderrProgress();
    const job = await runJobToEnd(deps, jobRegistry, await exportJobId(deps, created.id), {
      onProgress: progress.update,
    });
    progress.end();
    if (job.status === 'FAILED') {
      const action = await getAsyncAction(deps, job.id);
      throw new AppError('job_failed', `${job.id}: ${String(action.result?.message)}`);
    }
    const file = await openExportFile(deps, created.id);
    if (flags.out !== undefined) await pipeline(file.stream, createWriteStream(flags.out));
    else if (!options.json) await pipeline(file.stream, process.stdout, { end: false });
    else file.stream.destroy();
    if (options.json) printJson(await getExport(deps, created.id));
    else if (flags.out !== undefined) process.stdout.write(`Exported ${job.done_count} row(s) to ${flags.out}\n`);
  });
