import { listAsyncActions, listJobViews } from '../../jobs/jobs.service.js';
import { printJson, runWithDeps, UsageError, type CommonOptions } from '../run.js';

interface JobsOptions extends CommonOptions {
  once?: boolean;
  limit?: string;
}

/**
 * `promo jobs`: the live Ink view of async actions. `--once` prints one frame, `--json` the
 * list as GET /v1/async-actions answers it. Ink and React load only here (half a second).
 */
export const jobsCommand = (options: JobsOptions) =>
  runWithDeps(options, async (deps) => {
    const limit = Number(options.limit ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError('--limit must be an integer from 1 to 100');
    if (options.json) return printJson(await listAsyncActions(deps, { limit }));
    const [{ createElement }, ink, view] = await Promise.all([import('react'), import('ink'), import('../../tui/jobs-view.js')]);
    const load = () => listJobViews(deps, { limit });
    if (options.once || !process.stdin.isTTY) {
      const frame = ink.renderToString(createElement(view.JobsTable, { jobs: await load(), nowMs: deps.clock.now().getTime() }), {
        columns: process.stdout.columns ?? 140,
      });
      process.stdout.write(`${frame}\n`);
      return;
    }
    const app = ink.render(createElement(view.JobsApp, { load }));
    await app.waitUntilExit();
  });
