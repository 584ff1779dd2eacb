-- Accounts at the bank's identity provider (OpenID Connect), linked to console users by the
-- provider's issuer and subject, which never change for a person (an e-mail address can).
CREATE TABLE user_identities (
  issuer TEXT NOT NULL CHECK (length(issuer) BETWEEN 1 AND 2048),
  subject TEXT NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_sign_in_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (issuer, subject)
) WITHOUT ROWID;
CREATE INDEX user_identities_user_id_idx ON user_identities(user_id);
