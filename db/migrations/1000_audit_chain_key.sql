-- Issue 22: the audit chain is keyed (HMAC-SHA-256 under a key kept outside the database:
-- AUDIT_CHAIN_KEY or DATA_DIR/audit-chain.key). The single row names that key by a fingerprint
-- (never the key) and says when the chain was keyed. The server writes it at start: a chain from
-- before this migration is first checked as it stands, scrubbed of unmasked credentials and card
-- numbers, re-chained under the key, and the re-chaining is recorded as an audit row of its own
-- (src/server/audit_rekey.ts). Like the trail, the row cannot be changed or deleted.
CREATE TABLE audit_chain_state (
  id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
  algorithm TEXT NOT NULL CHECK (algorithm = 'HMAC-SHA-256'),
  key_id TEXT NOT NULL CHECK (length(key_id) = 16),
  keyed_at TEXT NOT NULL
);

CREATE TRIGGER audit_chain_state_no_update BEFORE UPDATE ON audit_chain_state
BEGIN SELECT RAISE(ABORT, 'audit_chain_state is append-only'); END;
CREATE TRIGGER audit_chain_state_no_delete BEFORE DELETE ON audit_chain_state
BEGIN SELECT RAISE(ABORT, 'audit_chain_state is append-only'); END;
