/**
 * Served operations with a reference example that the contract test does not send, each with
 * its reason (also in docs/pending/shapes.md).
 */
const NOT_YET = 'not sent yet: its request needs state the contract world does not build (left for a follow-up)';
const UPLOAD = 'a multipart CSV upload: its 202 answer is {async_action_id}, asserted whole by its own import tests';
const UNSERVED = 'not served: promo answers 404 "No route" on purpose (src/http/unserved-routes.ts)';

export const UNCOVERED: Record<string, string> = {
  'POST /v1/vouchers/import': UNSERVED,
  'POST /v1/orders/export': UNSERVED,
  'POST /v1/vouchers/importCSV': UPLOAD,
  'POST /v1/campaigns/{campaignId}/importCSV': UPLOAD,
  'POST /v1/customers/importCSV': UPLOAD,
  'POST /v1/products/importCSV': UPLOAD,
  'POST /v1/skus/importCSV': UPLOAD,
  'POST /v1/promotions/{campaignId}/stacks': NOT_YET,
  'POST /v1/rewards/{rewardId}/assignments': NOT_YET,
  'PUT /v1/rewards/{rewardId}/assignments/{assignmentId}': NOT_YET,
  'DELETE /v1/loyalties/{campaignId}': NOT_YET,
  'POST /v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/activate': NOT_YET,
  'POST /v1/loyalties/members/{memberId}/redemption': NOT_YET,
  'GET /v1/loyalties/{campaignId}/tiers': NOT_YET,
  'GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}': NOT_YET,
  'GET /v1/loyalties/members/{memberId}/tiers': NOT_YET,
  'GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/earning-rules': NOT_YET,
  'GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/rewards': NOT_YET,
  'POST /management/v1/projects/{projectId}/stacking-rules': NOT_YET,
  'GET /management/v1/projects/{projectId}/stacking-rules': NOT_YET,
  'GET /management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}': NOT_YET,
  'PUT /management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}': NOT_YET,
  'POST /v1/oauth/token': 'a form-encoded OAuth request, asserted whole by test/api/oauth.test.ts',
  'POST /v1/oauth/introspect': 'a form-encoded OAuth request, asserted whole by test/api/oauth.test.ts',
};
