import { generateVouchersStep } from '../../modules/vouchers/voucher-generation.job.js';
import { runWorkerTask, type WorkerReport, type WorkerTask } from '../worker-runtime.js';

/** Piscina task: one portion of a CAMPAIGN.VOUCHERS_GENERATE job. */
export default function generateVouchersPortion(task: WorkerTask): Promise<WorkerReport> {
  return runWorkerTask(task, generateVouchersStep);
}
