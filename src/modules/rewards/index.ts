/** The rewards module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export {
  findProgramCampaign,
  findProgramReward,
  programRewards,
  rewardAssignmentExists,
} from './assignments.service.js';
export type { RewardView } from './rewards.presenter.js';
export { claimRewardStock, releaseRewardStock } from './rewards.service.js';
