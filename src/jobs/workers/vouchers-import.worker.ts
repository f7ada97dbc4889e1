import { importVouchersStep } from '../../modules/vouchers/voucher-import.job.js';
import { runWorkerTask, type WorkerReport, type WorkerTask } from '../worker-runtime.js';

/** Piscina task: one portion of a CAMPAIGN.VOUCHERS_IMPORT job. */
export default function importVouchersPortion(task: WorkerTask): Promise<WorkerReport> {
  return runWorkerTask(task, importVouchersStep);
}
