import type { AuthTables } from '../modules/auth/auth.table.js';
import type { CatalogTables } from '../modules/catalog/catalog.table.js';
import type { CampaignsTables } from '../modules/campaigns/campaigns.table.js';
import type { CategoriesTables } from '../modules/categories/categories.table.js';
import type { JobsTables } from '../jobs/jobs.table.js';
import type { VouchersTables } from '../modules/vouchers/vouchers.table.js';
import type { CustomersTables } from '../modules/customers/customers.table.js';
import type { EventsTables } from '../modules/events/events.table.js';
import type { LedgersTables } from '../modules/ledgers/ledgers.table.js';
import type { OrdersTables } from '../modules/orders/orders.table.js';
import type { RewardsTables } from '../modules/rewards/rewards.table.js';
import type { TiersTables } from '../modules/loyalty/tiers/tiers.table.js';
import type { EarningRulesTables } from '../modules/loyalty/earning/earning-rules.table.js';
import type { PendingPointsTables } from '../modules/loyalty/pending-points/pending-points.table.js';
import type { IdempotencyTables } from '../modules/idempotency/idempotency.table.js';
import type { StackingRulesTables } from '../modules/stacking-rules/stacking-rules.table.js';
import type { ValidationRulesTables } from '../modules/validation-rules/validation-rules.table.js';
import type { RedemptionsTables } from '../modules/redemptions/redemptions.table.js';
import type { RedemptionListTables } from '../modules/redemptions/list/redemptions-list.table.js';
import type { SessionLocksTables } from '../modules/sessions/session-locks.table.js';
import type { ExportsTables } from '../modules/exports/exports.table.js';
import type { PublicationsTables } from '../modules/publications/publications.table.js';
import type { SegmentsTables } from '../modules/segments/segments.table.js';
import type { WebhooksTables } from '../modules/webhooks/webhooks.table.js';

/**
 * Kysely's view of the whole schema: every module's *.table.ts, joined. A module adds its
 * tables by extending this interface list.
 */
export interface Database
  extends AuthTables,
    CatalogTables,
    CustomersTables,
    EventsTables,
    CategoriesTables,
    CampaignsTables,
    VouchersTables,
    JobsTables,
    OrdersTables,
    LedgersTables,
    EarningRulesTables,
    PendingPointsTables,
    RewardsTables,
    TiersTables,
    IdempotencyTables,
    StackingRulesTables,
    ValidationRulesTables,
    RedemptionsTables,
    RedemptionListTables,
    SessionLocksTables,
    ExportsTables,
    PublicationsTables,
    SegmentsTables,
    WebhooksTables {}

/**
 * A schema Kysely knows nothing of, for the few queries whose tables and columns are named at
 * run time (an export's source, a newest-first walk over any table): every table a record of
 * unknown columns, so such a query compiles without `any` and reads back as the caller types it.
 */
export type DynamicSchema = Record<string, Record<string, unknown>>;
