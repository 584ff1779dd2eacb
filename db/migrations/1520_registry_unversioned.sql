-- The rows that may still lack a version (src/server/registry_history/initial_versions.ts): every row
-- inserted into a registry table is queued here by a trigger, whoever wrote it (a feature, which
-- records its version in the same transaction, or a seeder or bulk loader in plain SQL), and each
-- headquarters or standalone start versions the queued rows that lack one and empties the queue. The
-- start thereby costs what was inserted since the last one, not an anti-join over every registry row.
CREATE TABLE registry_unversioned (
  entity_type TEXT NOT NULL CHECK (entity_type IN ('institution', 'routing_code', 'swift_code', 'national_routing_entry')),
  entity_id TEXT NOT NULL,
  PRIMARY KEY (entity_type, entity_id)
) WITHOUT ROWID;
CREATE TRIGGER registry_unversioned_institutions AFTER INSERT ON institutions
BEGIN
  INSERT OR IGNORE INTO registry_unversioned (entity_type, entity_id) VALUES ('institution', NEW.id);
END;
CREATE TRIGGER registry_unversioned_routing_codes AFTER INSERT ON routing_codes
BEGIN
  INSERT OR IGNORE INTO registry_unversioned (entity_type, entity_id) VALUES ('routing_code', NEW.id);
END;
CREATE TRIGGER registry_unversioned_swift_codes AFTER INSERT ON swift_codes
BEGIN
  INSERT OR IGNORE INTO registry_unversioned (entity_type, entity_id) VALUES ('swift_code', NEW.id);
END;
CREATE TRIGGER registry_unversioned_national_routing_registry AFTER INSERT ON national_routing_registry
BEGIN
  INSERT OR IGNORE INTO registry_unversioned (entity_type, entity_id) VALUES ('national_routing_entry', NEW.id);
END;
-- Rows already there without a version (written before 1470, or by a seeder since): queued once here.
INSERT INTO registry_unversioned (entity_type, entity_id)
  SELECT 'institution', t.id FROM institutions t
  WHERE NOT EXISTS (SELECT 1 FROM registry_versions v WHERE v.entity_type = 'institution' AND v.entity_id = t.id);
INSERT INTO registry_unversioned (entity_type, entity_id)
  SELECT 'routing_code', t.id FROM routing_codes t
  WHERE NOT EXISTS (SELECT 1 FROM registry_versions v WHERE v.entity_type = 'routing_code' AND v.entity_id = t.id);
INSERT INTO registry_unversioned (entity_type, entity_id)
  SELECT 'swift_code', t.id FROM swift_codes t
  WHERE NOT EXISTS (SELECT 1 FROM registry_versions v WHERE v.entity_type = 'swift_code' AND v.entity_id = t.id);
INSERT INTO registry_unversioned (entity_type, entity_id)
  SELECT 'national_routing_entry', t.id FROM national_routing_registry t
  WHERE NOT EXISTS (SELECT 1 FROM registry_versions v WHERE v.entity_type = 'national_routing_entry' AND v.entity_id = t.id);
