import { deleteCampaignVouchersStep } from '../../modules/vouchers/campaign-vouchers.job.js';
import { runWorkerTask, type WorkerReport, type WorkerTask } from '../worker-runtime.js';

/** Piscina task: one portion of a CAMPAIGN.VOUCHERS_DELETE job. */
export default function deleteCampaignVouchersPortion(task: WorkerTask): Promise<WorkerReport> {
  return runWorkerTask(task, deleteCampaignVouchersStep);
}
