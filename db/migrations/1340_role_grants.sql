-- Dual control of administration. Every role held has a grant saying how it came to be held, so that
-- authority to decide comes from a controlled grant and the grant history (not the user id alone)
-- decides who may check whom (src/domain/dual_control.ts).
CREATE TABLE role_grants (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('administrator', 'operator', 'approver', 'auditor')),
  source TEXT NOT NULL CHECK (source IN ('bootstrap', 'sole_administrator', 'dual_control', 'provider', 'seed', 'legacy')),
  granted_by TEXT REFERENCES users(id),
  approved_by TEXT REFERENCES users(id),
  confirmed_by TEXT REFERENCES users(id),
  granted_at TEXT NOT NULL,
  confirmed_at TEXT,
  PRIMARY KEY (user_id, role),
  CHECK (approved_by IS NULL OR approved_by <> granted_by),
  CHECK (confirmed_by IS NULL OR (confirmed_by <> user_id AND confirmed_by IS NOT granted_by))
) WITHOUT ROWID;
CREATE INDEX role_grants_granted_by_idx ON role_grants(granted_by);
CREATE INDEX role_grants_approved_by_idx ON role_grants(approved_by);
CREATE INDEX role_grants_confirmed_by_idx ON role_grants(confirmed_by);

-- Roles held before this: the oldest administrator is the bootstrap one; every other role is legacy,
-- kept (an upgrade never drops a role) and listed at start when it breaks the separation of roles.
INSERT INTO role_grants (user_id, role, source, granted_at)
SELECT r.user_id, r.role,
  CASE WHEN r.role = 'administrator' AND r.user_id = (
    SELECT a.user_id FROM user_roles a JOIN users u ON u.id = a.user_id
    WHERE a.role = 'administrator' ORDER BY u.created_at, u.id LIMIT 1
  ) THEN 'bootstrap' ELSE 'legacy' END,
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM user_roles r;

-- Administration requests join the money requests in the one queue: the kind list grows, and an
-- administration request carries no amount. SQLite cannot change a CHECK in place, so the table is
-- rebuilt with its rows.
CREATE TABLE approval_requests_next (
  id TEXT PRIMARY KEY NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('sweep', 'auto_sweep', 'opening_balance', 'card_issue', 'card_distribute', 'card_load',
    'institution_status', 'user_create', 'user_update', 'user_reset_password', 'approval_settings', 'sign_in_settings',
    'account_outflow_limit', 'identity_link')),
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

-- When a second active administrator first existed: from then on dual control stays in force, so
-- disabling one administrator never hands the other back the power to act alone.
CREATE TABLE administration_policy (
  id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
  dual_control_since TEXT
);
INSERT INTO administration_policy (id, dual_control_since)
SELECT 1, CASE WHEN (SELECT count(*) FROM user_roles r JOIN users u ON u.id = r.user_id
  WHERE r.role = 'administrator' AND u.disabled_at IS NULL) >= 2
  THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END;

