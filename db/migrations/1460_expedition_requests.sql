-- Partnership expedition requests (spec 2.13): each request the Partnership Expediter files, with who
-- filed it and where it stands. Rows are never deleted; a cancelled request stays as the record of it.
CREATE TABLE expedition_requests (
  id TEXT PRIMARY KEY,
  partner TEXT NOT NULL CHECK (partner IN ('swift', 'visa', 'executive')),
  method TEXT NOT NULL,
  justification TEXT NOT NULL CHECK (length(justification) BETWEEN 1 AND 2000),
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_progress', 'done', 'cancelled')),
  requested_by TEXT NOT NULL REFERENCES users(id),
  requested_at TEXT NOT NULL,
  status_changed_by TEXT REFERENCES users(id),
  status_changed_at TEXT,
  status_note TEXT CHECK (status_note IS NULL OR length(status_note) <= 500)
);
CREATE INDEX expedition_requests_requested_at_idx ON expedition_requests(requested_at);
CREATE INDEX expedition_requests_requested_by_idx ON expedition_requests(requested_by);
CREATE INDEX expedition_requests_status_changed_by_idx ON expedition_requests(status_changed_by);
