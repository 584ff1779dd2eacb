-- The Reports screen's compliance schedule: filings administrators schedule. A filing is complete once
-- a report of its type has been generated since it opened (computed from generated_reports, never
-- stored); every change has its audit row.
CREATE TABLE compliance_filings (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  report_type TEXT NOT NULL,
  opens_on TEXT NOT NULL,
  due_date TEXT NOT NULL CHECK (opens_on <= due_date),
  created_by TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_by TEXT REFERENCES users(id),
  updated_at TEXT
);
CREATE INDEX compliance_filings_created_by_idx ON compliance_filings(created_by);
CREATE INDEX compliance_filings_updated_by_idx ON compliance_filings(updated_by);
-- The first completed report of a type since a day: what decides whether a filing is complete.
CREATE INDEX generated_reports_type_created_at_idx ON generated_reports(report_type, created_at);
