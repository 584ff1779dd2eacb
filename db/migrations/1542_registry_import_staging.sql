-- The new rows of an import being applied (docs/directory_import.md, "Applying"): written in bounded
-- batches, each its own short transaction, then moved into their tables by one final transaction
-- (INSERT ... SELECT) with their versions and the audit row. No reader looks here: the registry
-- shows an import whole when that transaction commits, or not at all. Rows of an attempt that did
-- not finish are deleted before the next attempt stages again.
CREATE TABLE registry_import_staging (
  import_id TEXT NOT NULL REFERENCES registry_imports(id),
  entity_type TEXT NOT NULL CHECK (entity_type IN ('institution', 'routing_code', 'swift_code')),
  seq INTEGER NOT NULL CHECK (seq >= 0),
  entity_id TEXT NOT NULL,
  data TEXT NOT NULL CHECK (json_valid(data)),
  PRIMARY KEY (import_id, entity_type, seq)
);
