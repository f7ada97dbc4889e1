/** OAuth scopes: the reference's "Generate OAuth 2.0 Token" `scope` (docs/api.md, Authentication). */
export const SCOPES = [
  'api',
  'client_api',
  'vouchers',
  'client_vouchers',
  'promotions',
  'client_promotions',
  'campaigns',
  'client_publish',
  'exports',
  'publications',
  'client_validate',
  'validations',
  'client_validations',
  'qualifications',
  'client_qualifications',
  'client_redeem',
  'redemptions',
  'client_redemptions',
  'customers',
  'client_customers',
  'orders',
  'products',
  'skus',
  'validation-rules',
  'validation-rules-assignments',
  'segments',
  'events',
  'client_events',
  'rewards',
  'assets',
  'task-results',
  'loyalties',
  'client_consents',
  'consents',
  'async-actions',
  'product-collections',
  'categories',
  'metadata-schemas',
  'locations',
  'referrals',
  'trash-bin',
  'templates',
] as const;

export type Scope = (typeof SCOPES)[number];

const KNOWN = new Set<string>(SCOPES);
export const isScope = (value: string): value is Scope => KNOWN.has(value);

/**
 * Whether a token with these scopes may call this path. `api` opens all of /v1, `client_api`
 * all of /client/v1; any other scope opens the paths whose first segment matches it
 * (`product-collections` opens /v1/product-collections/..., `client_redemptions` opens
 * /client/v1/redemptions/...).
 */
export function scopesAllowPath(scopes: readonly string[], path: string): boolean {
  const client = /^\/client\/v1\/([^/]+)/.exec(path);
  if (client) return scopes.includes('client_api') || scopes.includes(`client_${client[1]}`);
  const server = /^\/v1\/([^/]+)/.exec(path);
  if (server) return scopes.includes('api') || scopes.includes(server[1] as string);
  // The management API's paths (promo serves its stacking rules) open with `api` only.
  return path.startsWith('/management/v1/') && scopes.includes('api');
}
