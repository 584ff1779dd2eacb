-- The event outbox (src/server/events/outbox.ts): a mutation that others must hear of appends one row in
-- its own transaction, so an event exists exactly when its change committed. Readers follow `seq`:
-- each user's notification feed (the rows addressed to them) and the webhook deliveries.
-- Rows are never edited.
CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 64),
  subject_type TEXT NOT NULL CHECK (length(subject_type) BETWEEN 1 AND 64),
  subject_id TEXT NOT NULL CHECK (length(subject_id) BETWEEN 1 AND 128),
  summary TEXT NOT NULL CHECK (length(summary) BETWEEN 1 AND 500),
  link TEXT CHECK (link IS NULL OR (length(link) BETWEEN 1 AND 300 AND substr(link, 1, 1) = '/')),
  data TEXT NOT NULL CHECK (json_valid(data)),
  recipient_user_id TEXT REFERENCES users(id),
  recipient_roles TEXT CHECK (recipient_roles IS NULL OR json_valid(recipient_roles)),
  excluded_user_id TEXT REFERENCES users(id),
  occurred_at TEXT NOT NULL
);

CREATE INDEX events_recipient_user ON events (recipient_user_id, seq) WHERE recipient_user_id IS NOT NULL;
CREATE INDEX events_kind ON events (kind, seq);
