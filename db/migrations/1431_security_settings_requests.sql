-- The System Settings' session timeout and password policy change under dual control (kind
-- security_settings, src/domain/approval.ts). SQLite cannot change a CHECK in place, so the request
-- table is rebuilt with its rows, as 1340 did.
CREATE TABLE approval_requests_next (
  id TEXT PRIMARY KEY NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('sweep', 'auto_sweep', 'opening_balance', 'card_issue', 'card_distribute', 'card_load',
    'institution_status', 'user_create', 'user_update', 'user_reset_password', 'approval_settings', 'sign_in_settings',
    'security_settings', 'account_outflow_limit', 'identity_link')),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled')),
  payload TEXT NOT NULL CHECK (json_valid(payload)),
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
INSERT INTO approval_requests_next SELECT id, kind, status, payload, summary, amount_minor, currency, requested_by,
  request_reason, requested_at, expires_at, decided_by, decided_at, decision_reason, executed_by, result_entity_type,
  result_entity_id FROM approval_requests;
DROP TABLE approval_requests;
ALTER TABLE approval_requests_next RENAME TO approval_requests;
CREATE INDEX approval_requests_status_idx ON approval_requests(status, requested_at);
CREATE INDEX approval_requests_requested_by_idx ON approval_requests(requested_by, requested_at);
CREATE INDEX approval_requests_decided_by_idx ON approval_requests(decided_by);
CREATE INDEX approval_requests_executed_by_idx ON approval_requests(executed_by);
