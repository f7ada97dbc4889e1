export interface ApiKeyTable {
  app_id: string;
  kind: 'server' | 'client';
  name: string;
  token_hash: string;
  /** JSON array of allowed origins; `*` allows any. */
  origins: string;
  created_at: string;
  revoked_at: string | null;
  /** Requests per minute; null: the server's default. */
  rate_limit: number | null;
}

export interface OAuthTokenTable {
  token_hash: string;
  app_id: string;
  scope: string;
  created_at: string;
  /** Unix seconds. */
  expires_at: number;
  revoked_at: string | null;
}

export interface AuthTables {
  api_keys: ApiKeyTable;
  oauth_tokens: OAuthTokenTable;
}
