-- Idempotent retries (issue 13): the first answer to a POST sent with an `Idempotency-Key`
-- header, per credential, for 24 hours. A row is inserted inside the request's first write
-- transaction (src/db/first-write.ts), so it exists exactly when the request's write
-- committed: a retry never writes twice. The answer is stored once it is known; a row without
-- one belongs to a request still running (or one that died between its commit and its answer).
CREATE TABLE idempotency_keys (
  credential    TEXT NOT NULL,            -- `<channel>:<app_id>` of the key or token's holder
  key           TEXT NOT NULL,            -- the header, at most 255 characters
  request_hash  TEXT NOT NULL,            -- sha256 of method, path and body
  status        INTEGER,                  -- the answer's status; NULL while the request runs
  body          TEXT,                     -- the answer's body as sent (JSON text)
  created_at    TEXT NOT NULL,
  PRIMARY KEY (credential, key)
) STRICT, WITHOUT ROWID;

-- The expiry sweep walks keys by age.
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
