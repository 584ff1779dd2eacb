-- Ledger and sweeps (issue 6): idempotency records for POST /api/balance-sweeps and the lease rows
-- that let exactly one app process run each scheduled auto-sweep occurrence.

-- The first outcome of a request carrying an Idempotency-Key, replayed for every retry. Scoped per
-- user, as a key is chosen by the client. request_hash covers the normalised body, so the same key
-- with a different body is refused instead of replaying an unrelated result.
CREATE TABLE sweep_idempotency_keys (
  user_id TEXT NOT NULL REFERENCES users(id),
  idempotency_key TEXT NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
  request_hash TEXT NOT NULL CHECK (length(request_hash) = 64),
  response_status INTEGER NOT NULL CHECK (response_status BETWEEN 200 AND 599),
  response_body TEXT NOT NULL CHECK (json_valid(response_body)),
  sweep_id TEXT REFERENCES balance_sweeps(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (user_id, idempotency_key)
);
CREATE INDEX sweep_idempotency_keys_sweep_id_idx ON sweep_idempotency_keys(sweep_id);

-- One row per scheduled occurrence that ran. The row is inserted (ON CONFLICT DO NOTHING) in the
-- same transaction as the sweeps it triggers: the process whose insert lands runs the occurrence,
-- every other process skips it, and a crash mid-run rolls back both the sweeps and the claim.
CREATE TABLE sweep_schedule_leases (
  occurrence_key TEXT PRIMARY KEY NOT NULL CHECK (length(occurrence_key) BETWEEN 1 AND 64),
  schedule TEXT NOT NULL CHECK (length(schedule) BETWEEN 1 AND 255),
  instance_id TEXT NOT NULL CHECK (length(instance_id) BETWEEN 1 AND 64),
  claimed_at TEXT NOT NULL,
  sweeps_executed INTEGER NOT NULL DEFAULT 0 CHECK (sweeps_executed >= 0)
);
