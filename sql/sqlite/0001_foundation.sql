-- API keys: server keys open /v1, client keys open /client/v1 from allowed origins.
-- Tokens are stored only as SHA-256 hashes.
CREATE TABLE api_keys (
  app_id      TEXT PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind IN ('server', 'client')),
  name        TEXT NOT NULL,
  token_hash  TEXT NOT NULL,
  origins     TEXT NOT NULL DEFAULT '["*"]',  -- JSON array; client keys only
  created_at  TEXT NOT NULL,
  revoked_at  TEXT
) STRICT;

-- OAuth access tokens (client_credentials). Looked up by hash; a token dies with its key.
CREATE TABLE oauth_tokens (
  token_hash  TEXT PRIMARY KEY,
  app_id      TEXT NOT NULL REFERENCES api_keys (app_id),
  scope       TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  expires_at  INTEGER NOT NULL,  -- Unix seconds
  revoked_at  TEXT
) STRICT;

CREATE INDEX oauth_tokens_app_id ON oauth_tokens (app_id);
