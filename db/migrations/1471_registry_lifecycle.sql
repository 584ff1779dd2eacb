-- Participant lifecycle with dates and the Legal Entity Identifier (docs/directory.md). A record is
-- terminated from terminated_at on (its status column keeps the last operating status, so that the
-- CHECK lists of 0001 stand); its successor is named beside it. deletion_announced_at is when its
-- coming deletion was first flagged, so that editions announce it at least one edition ahead.
ALTER TABLE institutions ADD COLUMN lei TEXT CHECK (lei IS NULL OR length(lei) = 20);
ALTER TABLE institutions ADD COLUMN successor_id TEXT REFERENCES institutions(id);
ALTER TABLE institutions ADD COLUMN terminated_at TEXT;
ALTER TABLE institutions ADD COLUMN deletion_announced_at TEXT;
CREATE UNIQUE INDEX institutions_lei_idx ON institutions(lei) WHERE lei IS NOT NULL;
CREATE INDEX institutions_successor_idx ON institutions(successor_id);

ALTER TABLE routing_codes ADD COLUMN successor_code TEXT;
ALTER TABLE routing_codes ADD COLUMN terminated_at TEXT;
ALTER TABLE routing_codes ADD COLUMN deletion_announced_at TEXT;

ALTER TABLE swift_codes ADD COLUMN successor_bic TEXT;
ALTER TABLE swift_codes ADD COLUMN terminated_at TEXT;
ALTER TABLE swift_codes ADD COLUMN deletion_announced_at TEXT;
