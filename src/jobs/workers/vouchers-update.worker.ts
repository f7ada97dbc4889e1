import { updateCampaignVouchersStep } from '../../modules/vouchers/campaign-vouchers.job.js';
import { runWorkerTask, type WorkerReport, type WorkerTask } from '../worker-runtime.js';

/** Piscina task: one portion of a CAMPAIGN.VOUCHERS_UPDATE job. */
export default function updateCampaignVouchersPortion(task: WorkerTask): Promise<WorkerReport> {
  return runWorkerTask(task, updateCampaignVouchersStep);
}
