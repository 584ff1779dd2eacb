-- The primary's history as the consoles wrote it. Every write a replicated console sends the
-- primary (each transaction, each batch) first appends a random mark here, so the mark with the
-- highest seq in a replica names exactly the last transaction that replica holds. Before each sync a
-- node asks the primary for the mark at that seq: absent or different, the primary no longer holds
-- this replica's history (a restore took it back in time, or it is another database), and the
-- node rebuilds its replica instead of applying new frames over a diverged file.
CREATE TABLE history_marks (
  seq INTEGER PRIMARY KEY,
  mark TEXT NOT NULL,
  written_at TEXT NOT NULL
);

-- What a node found it had confirmed that a restored primary no longer holds (the lost-change
-- report), one row per detection; the set-aside replica it was read from is named, never deleted.
CREATE TABLE divergence_reports (
  id TEXT PRIMARY KEY NOT NULL,
  node TEXT NOT NULL,
  detected_at TEXT NOT NULL,
  reason TEXT NOT NULL,
  set_aside_path TEXT NOT NULL,
  report TEXT NOT NULL
);
CREATE INDEX divergence_reports_detected_at ON divergence_reports (detected_at DESC);
