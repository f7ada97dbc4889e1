import { internalActor } from '../../lib/actor.js';
import { AppError } from '../../lib/errors.js';
import { flagsSchema, integer, text } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';
import { MAX_VOUCHERS_COUNT } from '../../modules/campaigns/index.js';
import { getAsyncAction } from '../../jobs/jobs.service.js';
import { addVouchers } from '../../modules/vouchers/index.js';
import { jobRegistry } from '../../root/job-registry.js';
import { runJobToEnd } from '../../jobs/follow.js';
import { stderrProgress } from '../../tui/progress-line.js';
import { printJson, runWithDeps, type CommonOptions } from '../run.js';

/** The same bounds as the endpoint's `vouchers_count` and `code_config.length`. */
const generateFlags = flagsSchema({
  count: integer(1, MAX_VOUCHERS_COUNT, 1),
  length: integer(1, 255),
  charset: text(),
  prefix: text(),
  postfix: text(),
  pattern: text(),
});

/**
 * `promo generate <campaign> --count N`: what POST /v1/campaigns/{id}/vouchers does. One
 * voucher is printed at once; more run as the same CAMPAIGN.VOUCHERS_GENERATE job, in this
 * process, with a progress bar on stderr.
 */
export const generateCommand = (campaign: string, options: CommonOptions & Record<string, unknown>) =>
  runWithDeps(options, async (deps) => {
    const { count, ...codeFlags } = parse(generateFlags, options, 'flags');
    const codeConfig = Object.fromEntries(Object.entries(codeFlags).filter(([, value]) => value !== undefined));
    const body = Object.keys(codeConfig).length > 0 ? { code_config: codeConfig } : {};
    const result = await addVouchers(deps, campaign, { count, body, actor: internalActor() });
    if ('voucher' in result) {
      if (options.json) printJson(result.voucher);
      else process.stdout.write(`${result.voucher.code}\n`);
      return;
    }
    const progress = stderrProgress();
    const job = await runJobToEnd(deps, jobRegistry, result.async_action_id, { onProgress: progress.update });
    progress.end();
    const action = await getAsyncAction(deps, job.id);
    if (options.json) printJson(action);
    else process.stdout.write(`${String(action.result?.message ?? job.status)}\n`);
    if (job.status === 'FAILED') {
      throw new AppError('job_failed', `${job.id}: ${String(action.result?.message)}`);
    }
  });
