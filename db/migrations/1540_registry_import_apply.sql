-- An approved registry import is applied by a background applier at headquarters or on a standalone
-- node, in one transaction of its own with a deadline sized to the largest import
-- (docs/directory_import.md, "Applying"): the approval only queues it. apply_state follows it:
-- approved (queued) -> applying -> applied, or failed with the reason people read; a row left
-- "applying" by a process that stopped is applied again (its transaction never committed).
ALTER TABLE registry_imports ADD COLUMN apply_state TEXT
  CHECK (apply_state IS NULL OR apply_state IN ('approved', 'applying', 'applied', 'failed'));
ALTER TABLE registry_imports ADD COLUMN approved_by TEXT REFERENCES users(id);
ALTER TABLE registry_imports ADD COLUMN approved_at TEXT;
ALTER TABLE registry_imports ADD COLUMN apply_attempts INTEGER NOT NULL DEFAULT 0 CHECK (apply_attempts >= 0);
ALTER TABLE registry_imports ADD COLUMN failure TEXT CHECK (failure IS NULL OR json_valid(failure));
UPDATE registry_imports SET apply_state = 'applied', approved_by = applied_by, approved_at = applied_at
  WHERE applied_at IS NOT NULL;
CREATE INDEX registry_imports_apply_state_idx ON registry_imports(apply_state);
CREATE INDEX registry_imports_approved_by_idx ON registry_imports(approved_by);
