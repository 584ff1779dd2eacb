-- Card-side journal of every load onto a card (at issue, at distribution, or later). Each row pairs
-- the card's balance change with the ledger_entries row that debited the funding source, so a
-- card's balance is the sum of its loads and every cent on it names the account it came from.
CREATE TABLE card_loads (
  id TEXT PRIMARY KEY NOT NULL,
  card_id TEXT NOT NULL REFERENCES cards(id),
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  funding_source TEXT NOT NULL CHECK (funding_source IN ('central_bank_treasury', 'settlement_source', 'operating_account')),
  source_account_id TEXT NOT NULL REFERENCES ledger_accounts(id),
  ledger_entry_id TEXT NOT NULL UNIQUE REFERENCES ledger_entries(id),
  reason TEXT NOT NULL CHECK (reason IN ('issue', 'distribute', 'load')),
  card_balance_before_minor INTEGER NOT NULL CHECK (card_balance_before_minor >= 0),
  card_balance_after_minor INTEGER NOT NULL CHECK (card_balance_after_minor BETWEEN 0 AND 999999999999999),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  created_by TEXT NOT NULL REFERENCES users(id),
  CHECK (card_balance_before_minor + amount_minor = card_balance_after_minor)
);
CREATE INDEX card_loads_card_idx ON card_loads(card_id, created_at);
CREATE INDEX card_loads_source_account_idx ON card_loads(source_account_id);
CREATE INDEX card_loads_created_by_idx ON card_loads(created_by);

CREATE TRIGGER card_loads_no_update BEFORE UPDATE ON card_loads
BEGIN SELECT RAISE(ABORT, 'card_loads is append-only'); END;
CREATE TRIGGER card_loads_no_delete BEFORE DELETE ON card_loads
BEGIN SELECT RAISE(ABORT, 'card_loads is append-only'); END;
