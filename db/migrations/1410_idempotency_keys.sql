-- One Idempotency-Key record for every route that moves money or records account data (card issue,
-- distribution and loads, the card-network and account-data calls, opening balances, approval
-- decisions and manual sweeps): src/server/http/idempotency.ts. A key is scoped per user, as a key is
-- chosen by the client, and names one request on one route: `route` and `request_hash` (SHA-256 of
-- the validated request) refuse the same key for anything else.
--
-- A record is written in the transaction that performs the action, with its answer. An action outside
-- any transaction (a provider's call) claims its key first: until its answer is kept the record has
-- none (response_status and response_body NULL), and a retry is told the request is in progress.
CREATE TABLE idempotency_keys (
  user_id TEXT NOT NULL REFERENCES users(id),
  idempotency_key TEXT NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
  route TEXT NOT NULL CHECK (length(route) BETWEEN 1 AND 64),
  request_hash TEXT NOT NULL CHECK (length(request_hash) = 64),
  response_status INTEGER CHECK (response_status IS NULL OR response_status BETWEEN 200 AND 599),
  response_body TEXT CHECK (response_body IS NULL OR json_valid(response_body)),
  created_at TEXT NOT NULL,
  answered_at TEXT,
  PRIMARY KEY (user_id, idempotency_key),
  CHECK ((response_status IS NULL) = (response_body IS NULL)),
  CHECK ((response_status IS NULL) = (answered_at IS NULL))
) WITHOUT ROWID;

-- The manual sweep's records carry over unchanged (same scope, same request hash), so a retry of a
-- sweep made before this upgrade still replays its answer.
INSERT INTO idempotency_keys (user_id, idempotency_key, route, request_hash, response_status, response_body,
  created_at, answered_at)
SELECT user_id, idempotency_key, 'balance_sweep', request_hash, response_status, response_body, created_at, created_at
FROM sweep_idempotency_keys;

DROP TABLE sweep_idempotency_keys;
