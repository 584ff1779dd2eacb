-- Generated reports (issue 9): one row per generation, written when it ends. A completed row has
-- its file under DATA_DIR/reports/<id>.<format> with the recorded size and SHA-256; a failed row
-- has no file and says why.
CREATE TABLE generated_reports (
  id TEXT PRIMARY KEY NOT NULL,
  report_type TEXT NOT NULL CHECK (report_type IN ('institutions', 'routing-codes', 'swift-activity', 'iban-validation', 'api-usage', 'audit-trail')),
  date_from TEXT NOT NULL CHECK (date_from GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  date_to TEXT NOT NULL CHECK (date_to GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date_to >= date_from),
  format TEXT NOT NULL CHECK (format IN ('pdf', 'csv', 'xlsx', 'xml')),
  status TEXT NOT NULL CHECK (status IN ('completed', 'failed')),
  file_name TEXT NOT NULL CHECK (length(file_name) BETWEEN 1 AND 100),
  row_count INTEGER CHECK (row_count IS NULL OR row_count >= 0),
  size_bytes INTEGER CHECK (size_bytes IS NULL OR size_bytes > 0),
  sha256 TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),
  summary TEXT CHECK (summary IS NULL OR json_valid(summary)),
  error TEXT CHECK (error IS NULL OR length(error) <= 500),
  created_by TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  completed_at TEXT,
  CHECK (
    (status = 'completed' AND row_count IS NOT NULL AND size_bytes IS NOT NULL AND sha256 IS NOT NULL AND completed_at IS NOT NULL AND error IS NULL)
    OR (status = 'failed' AND row_count IS NULL AND size_bytes IS NULL AND sha256 IS NULL AND error IS NOT NULL)
  )
);
CREATE INDEX generated_reports_created_at_idx ON generated_reports(created_at, id);
CREATE INDEX generated_reports_created_by_idx ON generated_reports(created_by);

-- The SWIFT activity report pages through BICs by registration and by last change.
CREATE INDEX IF NOT EXISTS reports_swift_codes_created_at_idx ON swift_codes(created_at, id);
CREATE INDEX IF NOT EXISTS reports_swift_codes_updated_at_idx ON swift_codes(updated_at, id);
