import { assetsRoutes } from '../modules/assets/assets.routes.js';
import { oauthRoutes } from '../modules/auth/oauth.routes.js';
import { catalogRoutes } from '../modules/catalog/catalog.routes.js';
import { categoriesRoutes } from '../modules/categories/categories.routes.js';
import { customersRoutes } from '../modules/customers/customers.routes.js';
import { customEventsRoutes } from '../modules/custom-events/custom-events.routes.js';
import { campaignsRoutes } from '../modules/campaigns/campaigns.routes.js';
import { promotionStacksRoutes } from '../modules/campaigns/promotion-stacks.routes.js';
import { promotionTiersRoutes } from '../modules/campaigns/promotion-tiers.routes.js';
import { asyncActionsRoutes } from '../modules/async-actions/async-actions.routes.js';
import { bulkUpdatesRoutes } from '../modules/async-actions/bulk-updates.routes.js';
import { ledgersRoutes } from '../modules/ledgers/ledgers.routes.js';
import { membersRoutes } from '../modules/loyalty/members/members.routes.js';
import { programsRoutes } from '../modules/loyalty/programs/programs.routes.js';
import { earningRulesRoutes } from '../modules/loyalty/earning/earning-rules.routes.js';
import { pendingPointsRoutes } from '../modules/loyalty/pending-points/pending-points.routes.js';
import { exportsRoutes } from '../modules/exports/exports.routes.js';
import { ordersRoutes } from '../modules/orders/orders.routes.js';
import { permanentDeletionRoutes } from '../modules/permanent-deletion/permanent-deletion.routes.js';
import { publicationsRoutes } from '../modules/publications/publications.routes.js';
import { redemptionsListRoutes } from '../modules/redemptions/list/redemptions-list.routes.js';
import { vouchersRoutes } from '../modules/vouchers/vouchers.routes.js';
import { rewardsRoutes } from '../modules/rewards/rewards.routes.js';
import { rewardAssignmentsRoutes } from '../modules/rewards/reward-assignments.routes.js';
import { redemptionsRoutes } from '../modules/redemptions/redemptions.routes.js';
import { tiersRoutes } from '../modules/loyalty/tiers/tiers.routes.js';
import { segmentsRoutes } from '../modules/segments/segments.routes.js';
import { stackingRulesRoutes } from '../modules/stacking-rules/stacking-rules.routes.js';
import { validationRulesRoutes } from '../modules/validation-rules/validation-rules.routes.js';
import { qualificationsRoutes } from '../modules/qualifications/qualifications.routes.js';
import { webhooksRoutes } from '../modules/webhooks/webhooks.routes.js';
import type { RouteModule } from './context.js';
import { unservedRoutes } from './unserved-routes.js';

/** Every module's routes, in one list. A new module adds its RouteModule here (unservedRoutes stays first). */
export const routeModules: RouteModule[] = [
  unservedRoutes,
  oauthRoutes,
  catalogRoutes,
  customersRoutes,
  campaignsRoutes,
  vouchersRoutes,
  ordersRoutes,
  asyncActionsRoutes,
  assetsRoutes,
  ledgersRoutes,
  programsRoutes,
  membersRoutes,
  earningRulesRoutes,
  pendingPointsRoutes,
  rewardsRoutes,
  rewardAssignmentsRoutes,
  tiersRoutes,
  promotionTiersRoutes,
  promotionStacksRoutes,
  stackingRulesRoutes,
  validationRulesRoutes,
  redemptionsRoutes,
  redemptionsListRoutes,
  exportsRoutes,
  publicationsRoutes,
  permanentDeletionRoutes,
  bulkUpdatesRoutes,
  categoriesRoutes,
  customEventsRoutes,
  segmentsRoutes,
  qualificationsRoutes,
  webhooksRoutes,
];
