import type { Selectable } from 'kysely';
import { queryTemplate } from '../../db/query-template.js';
import type { ApiKeyTable, OAuthTokenTable } from './auth.table.js';
import type { Db } from '../../db/engine.js';

export type ApiKeyRow = Selectable<ApiKeyTable>;
export type OAuthTokenRow = Selectable<OAuthTokenTable>;

const keyById = queryTemplate<{ app_id: string }, ApiKeyRow>((db, param) =>
  db.selectFrom('api_keys').selectAll().where('app_id', '=', param('app_id')),
);

export const findApiKey = async (db: Db, appId: string): Promise<ApiKeyRow | undefined> =>
  (await keyById(db, { app_id: appId }))[0];

export const listApiKeys = (db: Db): Promise<ApiKeyRow[]> =>
  db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('app_id').execute();

export const countActiveApiKeys = async (db: Db): Promise<number> => {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
};

export const insertApiKey = async (db: Db, row: ApiKeyRow): Promise<void> => {
  await db.insertInto('api_keys').values(row).execute();
};

/** Replaces the token of a key given from the environment, so a changed env secret wins. */
export const upsertApiKey = async (db: Db, row: ApiKeyRow): Promise<void> => {
  await db
    .insertInto('api_keys')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('app_id')
        .doUpdateSet({ token_hash: row.token_hash, origins: row.origins, kind: row.kind, revoked_at: null }),
    )
    .execute();
};

export const revokeApiKey = async (db: Db, appId: string, at: string): Promise<boolean> => {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('app_id', '=', appId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

/** Forgets tokens that can no longer open anything: an unknown token answers the same. */
export const deleteDeadOAuthTokens = async (db: Db, nowSeconds: number): Promise<void> => {
  await db
    .deleteFrom('oauth_tokens')
    .where((eb) => eb.or([eb('expires_at', '<=', nowSeconds), eb('revoked_at', 'is not', null)]))
    .execute();
};

export const countLiveOAuthTokens = async (db: Db, nowSeconds: number): Promise<number> => {
  const row = await db
    .selectFrom('oauth_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('expires_at', '>', nowSeconds)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
};

export const insertOAuthToken = async (db: Db, row: OAuthTokenRow): Promise<void> => {
  await db.insertInto('oauth_tokens').values(row).execute();
};

/** A token with its key, live or not; the service decides what counts as active. */
export const findOAuthToken = (db: Db, tokenHash: string) =>
  db
    .selectFrom('oauth_tokens as t')
    .innerJoin('api_keys as k', 'k.app_id', 't.app_id')
    .select([
      't.app_id',
      't.scope',
      't.expires_at',
      't.revoked_at',
      'k.name',
      'k.revoked_at as key_revoked_at',
      'k.rate_limit',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();

export const revokeOAuthToken = async (db: Db, tokenHash: string, at: string, nowSeconds: number): Promise<boolean> => {
  const result = await db
    .updateTable('oauth_tokens')
    .set({ revoked_at: at })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowSeconds)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};
