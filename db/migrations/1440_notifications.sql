-- Notifications (docs/notifications.md): each user's read state over the event outbox (events), their
-- choice of kinds to receive by e-mail, the SMTP settings, and the e-mail sender's cursor and outcomes.

-- A user's "Mark all read": every event up to this seq counts as read for them.
CREATE TABLE notification_read_marks (
  user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  read_through_seq INTEGER NOT NULL CHECK (read_through_seq >= 0),
  updated_at TEXT NOT NULL
);

-- One event read by one user (beyond their mark).
CREATE TABLE notification_reads (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  event_seq INTEGER NOT NULL REFERENCES events(seq),
  read_at TEXT NOT NULL,
  PRIMARY KEY (user_id, event_seq)
) WITHOUT ROWID;

CREATE INDEX notification_reads_event ON notification_reads (event_seq);

-- The kinds a user receives by e-mail as well as in the bell; no row: none.
CREATE TABLE notification_email_preferences (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 64),
  updated_at TEXT NOT NULL,
  PRIMARY KEY (user_id, kind)
) WITHOUT ROWID;

CREATE INDEX notification_email_preferences_kind ON notification_email_preferences (kind, user_id);

-- The one mail server the console sends through; the password is encrypted (src/server/secrets.ts).
CREATE TABLE smtp_settings (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  host TEXT NOT NULL CHECK (length(host) BETWEEN 1 AND 253),
  port INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
  tls TEXT NOT NULL CHECK (tls IN ('none', 'starttls', 'tls')),
  username TEXT CHECK (username IS NULL OR length(username) BETWEEN 1 AND 255),
  password_ciphertext TEXT,
  from_address TEXT NOT NULL CHECK (length(from_address) BETWEEN 3 AND 255),
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL REFERENCES users(id)
);

CREATE INDEX smtp_settings_updated_by ON smtp_settings (updated_by);

-- How far the e-mail sender has read the outbox; it claims a batch by moving this mark.
CREATE TABLE notification_email_cursor (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq INTEGER NOT NULL CHECK (last_seq >= 0),
  updated_at TEXT NOT NULL
);

-- One row per e-mail attempted: sent, or failed with the mail server's answer.
CREATE TABLE notification_email_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  event_seq INTEGER NOT NULL REFERENCES events(seq),
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  recipient TEXT NOT NULL CHECK (length(recipient) BETWEEN 3 AND 255),
  outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'failed')),
  detail TEXT CHECK (detail IS NULL OR length(detail) <= 500),
  attempted_at TEXT NOT NULL
);

CREATE INDEX notification_email_deliveries_event ON notification_email_deliveries (event_seq);
CREATE INDEX notification_email_deliveries_user ON notification_email_deliveries (user_id);

-- The events of one subject, e.g. whether a request's expiry was announced already.
CREATE INDEX events_subject ON events (subject_id, kind);
