-- Bulk imports of the registry (docs/directory_import.md): the file as uploaded, known by its
-- SHA-256 so that the same file submitted twice is one import; the four-eyes request that applies
-- it; the dry-run report it was submitted with; and when and by whom it was applied.
CREATE TABLE registry_imports (
  id TEXT PRIMARY KEY NOT NULL,
  sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
  file_name TEXT CHECK (file_name IS NULL OR length(file_name) <= 255),
  byte_size INTEGER NOT NULL CHECK (byte_size >= 0),
  row_count INTEGER NOT NULL CHECK (row_count >= 0),
  content TEXT NOT NULL,
  report TEXT NOT NULL CHECK (json_valid(report)),
  approval_request_id TEXT,
  submitted_by TEXT NOT NULL REFERENCES users(id),
  submitted_at TEXT NOT NULL,
  applied_at TEXT,
  applied_by TEXT REFERENCES users(id),
  CHECK ((applied_at IS NULL) = (applied_by IS NULL))
);
CREATE INDEX registry_imports_submitted_at_idx ON registry_imports(submitted_at);
CREATE INDEX registry_imports_approval_request_idx ON registry_imports(approval_request_id);
CREATE INDEX registry_imports_submitted_by_idx ON registry_imports(submitted_by);
CREATE INDEX registry_imports_applied_by_idx ON registry_imports(applied_by);
