-- The journal of every balance change on a ledger account: the opening balance, each side of a
-- sweep, each card funding. An account's entries chain (before + amount = after, each before equal
-- to the previous after) and end at its current balance, so every unit of money has a recorded origin.
CREATE TABLE ledger_entries (
  id TEXT PRIMARY KEY NOT NULL,
  seq INTEGER NOT NULL UNIQUE CHECK (seq >= 1),
  account_id TEXT NOT NULL REFERENCES ledger_accounts(id),
  entry_type TEXT NOT NULL CHECK (entry_type IN ('opening', 'sweep_out', 'sweep_in', 'card_funding')),
  amount_minor INTEGER NOT NULL,
  balance_before_minor INTEGER NOT NULL CHECK (balance_before_minor >= 0),
  balance_after_minor INTEGER NOT NULL CHECK (balance_after_minor >= 0),
  reference_type TEXT NOT NULL CHECK (reference_type IN ('account', 'sweep', 'card')),
  reference_id TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  created_by TEXT NOT NULL REFERENCES users(id),
  CHECK (balance_before_minor + amount_minor = balance_after_minor)
);
CREATE INDEX ledger_entries_account_idx ON ledger_entries(account_id, seq);
CREATE INDEX ledger_entries_reference_idx ON ledger_entries(reference_type, reference_id);
CREATE INDEX ledger_entries_created_by_idx ON ledger_entries(created_by);
