/** The auth module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export {
  authenticateKey,
  bootstrapKeys,
  type CreatedKey,
  createKey,
  type KeyView,
  listKeys,
  recentlyAuthenticatedKey,
  revokeKey,
} from './keys.service.js';
export { tokenRequestSchema } from './oauth.schemas.js';
export { authenticateBearer, issueToken, recentlyAuthenticatedBearer } from './oauth.service.js';
export { scopesAllowPath } from './scopes.rules.js';
