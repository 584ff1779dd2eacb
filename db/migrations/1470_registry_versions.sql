-- The registry over time (docs/directory.md): every version of an institution, routing code, BIC and
-- national routing entry, with the instant it takes effect. `data` is the whole record as in force
-- from valid_from (Drizzle's row shape, db/schema.ts); `changes` the fields this version sets. A
-- version with applied_at NULL is scheduled: headquarters' worker writes it into the current table at
-- valid_from, once. valid_to is the next version's valid_from (NULL for the latest), kept by the writer
-- so that a list as of an instant is one range scan.
CREATE TABLE registry_versions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_type TEXT NOT NULL CHECK (entity_type IN ('institution', 'routing_code', 'swift_code', 'national_routing_entry')),
  entity_id TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  data TEXT NOT NULL CHECK (json_valid(data)),
  changes TEXT NOT NULL CHECK (json_valid(changes)),
  summary TEXT NOT NULL CHECK (length(summary) BETWEEN 1 AND 2000),
  requested_by TEXT REFERENCES users(id),
  approved_by TEXT REFERENCES users(id),
  approval_request_id TEXT,
  applied_at TEXT,
  created_at TEXT NOT NULL,
  CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
CREATE INDEX registry_versions_entity_idx ON registry_versions(entity_type, entity_id, valid_from, seq);
CREATE INDEX registry_versions_in_force_idx ON registry_versions(entity_type, valid_from, valid_to);
CREATE INDEX registry_versions_requested_by_idx ON registry_versions(requested_by);
CREATE INDEX registry_versions_approved_by_idx ON registry_versions(approved_by);
CREATE INDEX registry_versions_due_idx ON registry_versions(valid_from) WHERE applied_at IS NULL;
CREATE TRIGGER registry_versions_no_delete BEFORE DELETE ON registry_versions
BEGIN
  SELECT RAISE(ABORT, 'registry versions are history: never deleted');
END;

-- New four-eyes kinds: an institution's details from a date, a code's lifecycle, a directory edition's
-- publication and a bulk import. SQLite cannot change a CHECK in place: the table is rebuilt as 1431 did.
CREATE TABLE approval_requests_next (
  id TEXT PRIMARY KEY NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('sweep', 'auto_sweep', 'opening_balance', 'card_issue', 'card_distribute', 'card_load',
    'institution_status', 'institution_change', 'code_change', 'directory_edition', 'registry_import',
    'user_create', 'user_update', 'user_reset_password', 'approval_settings', 'sign_in_settings',
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
