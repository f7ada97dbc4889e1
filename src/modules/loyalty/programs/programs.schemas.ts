import { boolean, object, string } from 'yup';
import { limit, oneOf, order, page, querySchema, type QueryOf } from '../../../lib/query-params.js';
import {
  CAMPAIGN_ORDER_FIELDS,
  createCampaignSchema,
  updateCampaignSchema,
  codeConfigSchema,
  loyaltyCardTemplateSchema,
  redemptionSchema,
} from '../../campaigns/index.js';

/**
 * POST /v1/loyalties (create-loyalty-program): the body of a LOYALTY_PROGRAM campaign, where
 * `campaign_type` and `voucher.type` may be left out (the reference defaults them). The
 * service fills them in and creates the program as POST /v1/campaigns does.
 */
const loyaltyVoucher = () =>
  object({
    type: string().oneOf(['LOYALTY_CARD'] as const),
    loyalty_card: loyaltyCardTemplateSchema().required(),
    code_config: codeConfigSchema(),
    redemption: redemptionSchema(),
    is_referral_code: boolean(),
  })
    .noUnknown()
    .required();

export const createProgramSchema = createCampaignSchema.shape({
  campaign_type: string().oneOf(['LOYALTY_PROGRAM'] as const),
  voucher: loyaltyVoucher(),
});

/** PUT /v1/loyalties/{id or name}: what PUT /v1/campaigns takes (a program has no `discount`). */
export const updateProgramSchema = updateCampaignSchema;

const programsListParams = {
  limit: limit(),
  page: page(100),
  order: order(CAMPAIGN_ORDER_FIELDS),
  // Categories are always answered whole and there are no areas or stores: accepted, no effect.
  expand: oneOf(['category', 'access_settings_assignments'] as const),
};

/** GET /v1/loyalties (list-loyalty-programs): newest first unless `order` says otherwise. */
export const programsListQuerySchema = querySchema(programsListParams);
export type ProgramsListQuery = QueryOf<typeof programsListParams>;

/** DELETE /v1/loyalties/{id}?force=: there is no bin, so every delete is final; `force` is accepted. */
export const deleteProgramQuerySchema = querySchema({ force: oneOf(['true', 'false'] as const) });
