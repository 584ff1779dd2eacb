-- TOTP second factor (RFC 6238) for local accounts. The shared secret is stored encrypted
-- (src/server/secrets.ts); last_used_step is the 30-second time step of the last accepted code, so
-- no code is accepted twice. An enrolment not yet confirmed by a first code has confirmed_at NULL.
CREATE TABLE user_totp (
  user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  secret_encrypted TEXT NOT NULL CHECK (length(secret_encrypted) BETWEEN 1 AND 1000),
  confirmed_at TEXT,
  last_used_step INTEGER NOT NULL DEFAULT 0 CHECK (last_used_step >= 0),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Ten single-use recovery codes per enrolment, kept only as keyed hashes (HMAC-SHA-256).
CREATE TABLE user_recovery_codes (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL CHECK (length(code_hash) = 64),
  used_at TEXT,
  PRIMARY KEY (user_id, code_hash)
) WITHOUT ROWID;

-- The administrator's sign-in settings, one row. "MFA required" on the Security tab: a second
-- factor for everyone, not only for the roles that always need one. On by default, as the tab shows.
CREATE TABLE sign_in_settings (
  id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
  mfa_required_for_all INTEGER NOT NULL DEFAULT 1 CHECK (mfa_required_for_all IN (0, 1)),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_by TEXT REFERENCES users(id)
);
CREATE INDEX sign_in_settings_updated_by_idx ON sign_in_settings(updated_by);
INSERT INTO sign_in_settings (id) VALUES (1);
