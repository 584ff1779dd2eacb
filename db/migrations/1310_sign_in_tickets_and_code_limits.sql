-- Waiting tickets (src/domain/sign_in_throttle.ts): when a browser holding a ticket was last let
-- through this key's wait, so that tickets add at most one attempt per 30 s to any key.
ALTER TABLE login_throttle ADD COLUMN ticket_used_at TEXT;

-- Wrong second-factor codes (src/domain/second_factor_limits.ts): counted per pending sign-in (the
-- fifth ends it), per account or known browser over the last hour (the eleventh is refused
-- unjudged), and timed to fractions of a millisecond, which tells a code sent before the previous
-- one was judged. Rows older than an hour are deleted as new ones are written.
CREATE TABLE second_factor_failures (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  session_id TEXT NOT NULL CHECK (length(session_id) = 64),
  device_id TEXT CHECK (device_id IS NULL OR length(device_id) BETWEEN 1 AND 64),
  failed_at_ms REAL NOT NULL
);
CREATE INDEX second_factor_failures_user_idx ON second_factor_failures(user_id, failed_at_ms);
CREATE INDEX second_factor_failures_session_idx ON second_factor_failures(session_id);
CREATE INDEX second_factor_failures_time_idx ON second_factor_failures(failed_at_ms);
