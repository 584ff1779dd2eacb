-- Hourly request counters of the public API, one row per API key, documented endpoint and clock
-- hour (UTC). Every app process on the database increments the same row with an atomic upsert, so
-- the limit is shared; rows of past windows are pruned.
CREATE TABLE api_rate_limits (
  api_key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  endpoint TEXT NOT NULL CHECK (length(endpoint) BETWEEN 1 AND 100),
  window_start TEXT NOT NULL,
  count INTEGER NOT NULL CHECK (count >= 0),
  PRIMARY KEY (api_key_id, endpoint, window_start)
) WITHOUT ROWID;
CREATE INDEX api_rate_limits_window_start_idx ON api_rate_limits(window_start);

-- The key list and the "active keys" figure read keys newest first.
CREATE INDEX api_keys_created_at_idx ON api_keys(created_at);
