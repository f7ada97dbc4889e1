import type { AuthTables } from '../modules/auth/auth.table.js';

/**
 * Kysely's view of the whole schema: every module's *.table.ts, joined. A module adds its
 * tables by extending this interface list.
 */
export interface Database extends AuthTables {}
