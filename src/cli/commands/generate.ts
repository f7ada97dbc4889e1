import { internalActor } from '../../lib/actor.js';
import { AppError } from '../../lib/errors.js';
import { MAX_VOUCHERS_COUNT } from '../../modules/campaigns/campaigns.schemas.js';
import { getAsyncAction } from '../../jobs/jobs.service.js';
import type { CodeConfigBody } from '../../modules/campaigns/common.schemas.js';
import { addVouchers } from '../../modules/vouchers/voucher-generation.service.js';
import { jobRegistry } from '../../app/job-registry.js';
import { runJobToEnd } from '../../jobs/follow.js';
import { stderrProgress } from '../../tui/progress-line.js';
import { printJson, runWithDeps, UsageError, type CommonOptions } from '../run.js';

interface GenerateOptions extends CommonOptions {
  count: string;
  length?: string;
  charset?: string;
  prefix?: string;
  postfix?: string;
  pattern?: string;
}

function positiveInteger(name: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > max) throw new UsageError(`${name} must be an integer from 1 to ${max}`);
  return value;
}

function codeConfigOf(options: GenerateOptions): CodeConfigBody | undefined {
  const config: CodeConfigBody = {};
  if (options.length !== undefined) config.length = positiveInteger('--length', options.length, 255);
  for (const key of ['charset', 'prefix', 'postfix', 'pattern'] as const) {
    if (options[key] !== undefined) config[key] = options[key];
  }
  return Object.keys(config).length > 0 ? config : undefined;
}

/**
 * `promo generate <campaign> --count N`: what POST /v1/campaigns/{id}/vouchers does. One
 * voucher is printed at once; more run as the same CAMPAIGN.VOUCHERS_GENERATE job, in this
 * process, with a progress bar on stderr.
 */
export const generateCommand = (campaign: string, options: GenerateOptions) =>
  runWithDeps(options, async (deps) => {
    const count = positiveInteger('--count', options.count, MAX_VOUCHERS_COUNT);
    const codeConfig = codeConfigOf(options);
    const result = await addVouchers(deps, campaign, { count, body: codeConfig ? { code_config: codeConfig } : {}, actor: internalActor() });
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
