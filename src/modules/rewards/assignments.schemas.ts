import { boolean, object, type InferType } from 'yup';
import { bulkBody, idField } from '../../lib/fields.js';
import { limit, page, querySchema, text, type QueryOf } from '../../lib/query-params.js';
import { wholeNumberAtLeast } from './rewards.schemas.js';
import { validationRulesField } from '../validation-rules/index.js';

/**
 * Bodies of reward assignments: the bulk POST /v1/loyalties/{campaignId}/rewards (an array of
 * `{reward, parameters}`), POST /v1/rewards/{rewardId}/assignments (`{campaign, parameters}`)
 * and both PUTs (the reference's "Update Campaign Reward Assignment": `parameters.loyalty.points`). A COIN reward's assignment has no
 * points cost; every other needs one. `validation_rules` (rule ids) are assigned to the new
 * assignment.
 */
const PATH = '${path}';
const NOT_AN_OBJECT = 'The body must be a JSON object';

/** The most assignments one bulk request may create. */
export const MAX_BULK_ASSIGNMENTS = 100;

const parametersSchema = object({
  loyalty: object({
    points: wholeNumberAtLeast(1).nullable(),
    auto_redeem: boolean().typeError(`${PATH} must be a boolean`).nullable(),
  })
    .typeError(`${PATH} must be an object`)
    .nullable()
    .optional()
    .default(undefined),
})
  .typeError(`${PATH} must be an object`)
  .nullable()
  .optional()
  .default(undefined);

// Rule ids assigned to the new reward assignment in its transaction (validation-rules module).
const validationRules = validationRulesField(10);

const itemSchema = object({
  reward: idField(PATH).required(`${PATH} is required`),
  parameters: parametersSchema,
  validation_rules: validationRules,
}).typeError(`${PATH} must be an object`);

/** POST /v1/loyalties/{campaignId}/rewards: 1 to MAX_BULK_ASSIGNMENTS assignments, all or none. */
export const bulkAssignmentsSchema = bulkBody(itemSchema, 'assignment', 'assignments', MAX_BULK_ASSIGNMENTS);

/** POST /v1/rewards/{rewardId}/assignments. */
export const createRewardAssignmentSchema = object({
  campaign: idField('campaign').required('campaign is required'),
  parameters: parametersSchema,
  validation_rules: validationRules,
})
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT);

/** PUT of an assignment: its points cost (and auto_redeem). */
export const updateAssignmentSchema = object({ parameters: parametersSchema })
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT);

export type AssignmentItemBody = InferType<typeof itemSchema>;
export type CreateRewardAssignmentBody = InferType<typeof createRewardAssignmentSchema>;
export type UpdateAssignmentBody = InferType<typeof updateAssignmentSchema>;
export type AssignmentParametersBody = AssignmentItemBody['parameters'];

const programAssignmentsParams = { limit: limit(), page: page(100), assignment_id: text() };
const rewardAssignmentsParams = { limit: limit(), page: page(100) };

/** GET /v1/loyalties/{campaignId}/rewards. */
export const programAssignmentsQuerySchema = querySchema(programAssignmentsParams);
export type ProgramAssignmentsQuery = QueryOf<typeof programAssignmentsParams>;

/** GET /v1/rewards/{rewardId}/assignments. */
export const rewardAssignmentsQuerySchema = querySchema(rewardAssignmentsParams);
export type RewardAssignmentsQuery = QueryOf<typeof rewardAssignmentsParams>;
