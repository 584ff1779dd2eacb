-- The System Settings screen's values (spec 2.16), kept on the server because the server applies them
-- (src/server/settings/): one row, changed only by administrators, each change audited. The security
-- fields change under dual control once it is in force (an approval request of kind security_settings).
-- "MFA required" stays in sign_in_settings, the SMTP fields and notifications elsewhere.
--   session_timeout_minutes: the idle timeout of a staff session, capped by SESSION_IDLE_MINUTES.
--   password_policy: strong 12+, stronger 14+, complex 16+ characters (src/domain/system_settings.ts).
--   api_rate_limit_per_hour: the hourly limit a NEW API key gets (api_keys.limit_per_hour).
--   request_log_retention_days: NULL keeps API_LOG_RETENTION_DAYS; report_retention_days: NULL keeps reports.
--   backup_retention_copies: how many scheduled or manual copies stay under the backup folder.
CREATE TABLE system_settings (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  system_name TEXT NOT NULL DEFAULT 'Central Bank Registry System' CHECK (length(system_name) BETWEEN 1 AND 255),
  system_description TEXT NOT NULL DEFAULT 'National payment infrastructure registry and administration console'
    CHECK (length(system_description) <= 500),
  country_code TEXT NOT NULL DEFAULT 'US' CHECK (length(country_code) = 2),
  currency TEXT NOT NULL DEFAULT 'USD' CHECK (length(currency) = 3),
  timezone TEXT NOT NULL DEFAULT 'UTC' CHECK (length(timezone) BETWEEN 1 AND 64),
  language TEXT NOT NULL DEFAULT 'en' CHECK (length(language) = 2),
  session_timeout_minutes INTEGER NOT NULL DEFAULT 30 CHECK (session_timeout_minutes BETWEEN 1 AND 1440),
  password_policy TEXT NOT NULL DEFAULT 'strong' CHECK (password_policy IN ('strong', 'stronger', 'complex')),
  api_rate_limit_per_hour INTEGER NOT NULL DEFAULT 1000 CHECK (api_rate_limit_per_hour BETWEEN 1 AND 100000),
  auto_backup INTEGER NOT NULL DEFAULT 1 CHECK (auto_backup IN (0, 1)),
  backup_frequency TEXT NOT NULL DEFAULT 'daily' CHECK (backup_frequency IN ('hourly', 'daily', 'weekly', 'monthly')),
  backup_retention_copies INTEGER NOT NULL DEFAULT 7 CHECK (backup_retention_copies BETWEEN 1 AND 365),
  request_log_retention_days INTEGER CHECK (request_log_retention_days IS NULL OR request_log_retention_days BETWEEN 1 AND 3650),
  report_retention_days INTEGER CHECK (report_retention_days IS NULL OR report_retention_days BETWEEN 1 AND 3650),
  updated_at TEXT,
  updated_by TEXT REFERENCES users(id)
);
INSERT INTO system_settings (id) VALUES (1);
CREATE INDEX system_settings_updated_by_idx ON system_settings(updated_by);

-- Every process caches the row (session timeout on each request): a change bumps the settings epoch.
INSERT INTO change_epochs (topic, epoch) VALUES ('settings', 0);
CREATE TRIGGER change_epochs_system_settings_after_update AFTER UPDATE ON system_settings
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'settings'; END;

-- Each backup the console takes (scheduled or "Back up now"), newest last: the Backup tab shows the
-- last one and the scheduler counts the next from it. A running row has neither result nor error.
CREATE TABLE backup_runs (
  id TEXT PRIMARY KEY NOT NULL,
  trigger TEXT NOT NULL CHECK (trigger IN ('scheduled', 'manual')),
  started_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
  folder TEXT CHECK (folder IS NULL OR length(folder) BETWEEN 1 AND 1000),
  size_bytes INTEGER CHECK (size_bytes IS NULL OR size_bytes > 0),
  sha256 TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),
  error TEXT CHECK (error IS NULL OR length(error) <= 1000),
  requested_by TEXT REFERENCES users(id),
  CHECK (
    (status = 'running' AND finished_at IS NULL AND folder IS NULL AND error IS NULL)
    OR (status = 'completed' AND finished_at IS NOT NULL AND folder IS NOT NULL AND size_bytes IS NOT NULL
      AND sha256 IS NOT NULL AND error IS NULL)
    OR (status = 'failed' AND finished_at IS NOT NULL AND error IS NOT NULL)
  )
);
CREATE INDEX backup_runs_started_at_idx ON backup_runs(started_at, id);
CREATE INDEX backup_runs_requested_by_idx ON backup_runs(requested_by);

-- The hourly limit of a key made after this migration (the setting at its creation); NULL for older
-- keys, which keep the documented per-endpoint limits alone.
ALTER TABLE api_keys ADD COLUMN limit_per_hour INTEGER CHECK (limit_per_hour IS NULL OR limit_per_hour BETWEEN 1 AND 100000);
