-- Four-eyes (maker-checker) requests, issue 20: a movement of money or an institution status change
-- that needs a second person is filed here by its maker and executed when another user with the
-- approver role approves it, in the approval's own transaction. The decision is taken by one guarded
-- UPDATE ... WHERE status = 'pending', so of two approvers acting at once exactly one wins.
-- A pending request past expires_at counts as expired; nothing needs to run for that to hold.
CREATE TABLE approval_requests (
  id TEXT PRIMARY KEY NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('sweep', 'auto_sweep', 'opening_balance', 'card_issue', 'card_distribute', 'card_load',
    'institution_status')),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled')),
  -- The validated request body, re-validated and re-checked when it executes.
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  -- What it will do, with the figures as they were when it was requested (for the queue).
  summary TEXT NOT NULL CHECK (json_valid(summary)),
  amount_minor INTEGER CHECK (amount_minor IS NULL OR amount_minor >= 0),
  currency TEXT CHECK (currency IS NULL OR currency IN ('USD', 'EUR', 'GBP', 'JPY')),
  requested_by TEXT NOT NULL REFERENCES users(id),
  request_reason TEXT NOT NULL CHECK (length(request_reason) BETWEEN 1 AND 1000),
  requested_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  decided_by TEXT REFERENCES users(id),
  decided_at TEXT,
  decision_reason TEXT CHECK (decision_reason IS NULL OR length(decision_reason) <= 1000),
  executed_by TEXT REFERENCES users(id),
  result_entity_type TEXT,
  result_entity_id TEXT,
  CHECK (decided_by IS NULL OR decided_by <> requested_by)
);
CREATE INDEX approval_requests_status_idx ON approval_requests(status, requested_at);
CREATE INDEX approval_requests_requested_by_idx ON approval_requests(requested_by, requested_at);
CREATE INDEX approval_requests_decided_by_idx ON approval_requests(decided_by);
CREATE INDEX approval_requests_executed_by_idx ON approval_requests(executed_by);

-- Per currency: a manual sweep, an automatic run with a sweep, an opening balance, or a card's
-- funding above this needs approval.
CREATE TABLE approval_thresholds (
  currency TEXT PRIMARY KEY NOT NULL CHECK (currency IN ('USD', 'EUR', 'GBP', 'JPY')),
  threshold_minor INTEGER NOT NULL CHECK (threshold_minor BETWEEN 0 AND 999999999999999),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_by TEXT REFERENCES users(id)
) WITHOUT ROWID;
INSERT INTO approval_thresholds (currency, threshold_minor) VALUES
  ('USD', 100000000), ('EUR', 100000000), ('GBP', 100000000), ('JPY', 100000000);
CREATE INDEX approval_thresholds_updated_by_idx ON approval_thresholds(updated_by);

-- How long a request waits for a decision (one row).
CREATE TABLE approval_policy (
  id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
  request_ttl_minutes INTEGER NOT NULL CHECK (request_ttl_minutes BETWEEN 5 AND 43200),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_by TEXT REFERENCES users(id)
);
INSERT INTO approval_policy (id, request_ttl_minutes) VALUES (1, 1440);
CREATE INDEX approval_policy_updated_by_idx ON approval_policy(updated_by);
