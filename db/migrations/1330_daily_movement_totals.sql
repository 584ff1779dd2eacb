-- Cumulative four-eyes limits. What each maker moved alone (executed at once, without a second
-- person) per currency per UTC day, and what left each account alone per UTC day: a movement that
-- would take either above its bound (the currency's approval threshold, the account's daily
-- outflow limit) is filed for approval instead. Both totals are raised by a guarded UPSERT in the
-- movement's own transaction, so the decision and the movement commit or roll back together.
CREATE TABLE maker_daily_totals (
  maker_id TEXT NOT NULL REFERENCES users(id),
  currency TEXT NOT NULL CHECK (currency IN ('USD', 'EUR', 'GBP', 'JPY')),
  day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  moved_minor INTEGER NOT NULL CHECK (moved_minor >= 0),
  PRIMARY KEY (maker_id, currency, day)
) WITHOUT ROWID;

CREATE TABLE account_daily_outflows (
  account_id TEXT NOT NULL REFERENCES ledger_accounts(id),
  day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  outflow_minor INTEGER NOT NULL CHECK (outflow_minor >= 0),
  PRIMARY KEY (account_id, day)
) WITHOUT ROWID;

-- Set by administrators; null: no limit of its own (the makers' thresholds still apply).
ALTER TABLE ledger_accounts ADD COLUMN daily_outflow_limit_minor INTEGER
  CHECK (daily_outflow_limit_minor IS NULL OR daily_outflow_limit_minor BETWEEN 0 AND 999999999999999);
