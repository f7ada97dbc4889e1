/**
 * Served operations with a reference example that the contract test does not send, each with
 * its reason (also in docs/development.md, "The contract test").
 */
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
  'POST /v1/oauth/token': 'a form-encoded OAuth request, asserted whole by test/api/oauth.test.ts',
  'POST /v1/oauth/introspect': 'a form-encoded OAuth request, asserted whole by test/api/oauth.test.ts',
};
