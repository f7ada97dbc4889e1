import { jobRegistry } from '../../root/job-registry.js';
import { cancelJob } from '../../jobs/cancel.service.js';
import { getAsyncAction, listAsyncActions, listJobViews } from '../../jobs/jobs.service.js';
import { printFailures } from '../job-output.js';
import { printJson, runWithDeps, UsageError, type CommonOptions } from '../run.js';

interface JobsOptions extends CommonOptions {
  once?: boolean;
  limit?: string;
  failures?: string;
}

/**
 * `promo jobs`: the live Ink view of async actions. `--once` prints one frame, `--json` the
 * list as GET /v1/async-actions answers it, `--failures <id>` every failure of one job
 * (streamed). Ink and React load only here (half a second).
 */
export const jobsCommand = (options: JobsOptions) =>
  runWithDeps(options, async (deps) => {
    if (options.failures !== undefined) return printFailures(deps, options.failures, options.json);
    const limit = Number(options.limit ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new UsageError('--limit must be an integer from 1 to 100');
    if (options.json) return printJson(await listAsyncActions(deps, { limit }));
    const [{ createElement }, ink, view] = await Promise.all([
      import('react'),
      import('ink'),
      import('../../tui/jobs-view.js'),
    ]);
    const load = () => listJobViews(deps, { limit });
    if (options.once || !process.stdin.isTTY) {
      // The terminal's width; a pipe or a file has none, and gets the whole table.
      const columns = process.stdout.columns ?? 140;
      const frame = ink.renderToString(
        createElement(view.JobsTable, { jobs: await load(), nowMs: deps.clock.now().getTime(), width: columns }),
        { columns },
      );
      process.stdout.write(`${frame}\n`);
      return;
    }
    const cancel = async (id: string) => String((await cancelJob(deps, jobRegistry, id)).result?.message);
    const app = ink.render(createElement(view.JobsApp, { load, cancel }));
    await app.waitUntilExit();
  });

/**
 * `promo jobs cancel <id>`: cancels an open job, here or in the process that runs it, and
 * prints how it ended (`--json`: the async action). Exit 1 when unknown or already ended.
 */
export const cancelJobCommand = (id: string, options: CommonOptions) =>
  runWithDeps(options, async (deps) => {
    await cancelJob(deps, jobRegistry, id);
    const action = await getAsyncAction(deps, id);
    if (options.json) printJson(action);
    else process.stdout.write(`${String(action.result?.message)}\n`);
  });
