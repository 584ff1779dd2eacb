-- Codes and formats: a counter that every change to iban_configs bumps (by trigger, so a migration
-- that lands a new registry release bumps it too). Each server process caches the country formats
-- and notices another process's change with one primary-key read instead of re-reading them all.
CREATE TABLE iban_configs_version (
  id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
  version INTEGER NOT NULL CHECK (version >= 0)
);
INSERT INTO iban_configs_version (id, version) VALUES (1, 0);

CREATE TRIGGER iban_configs_version_after_insert AFTER INSERT ON iban_configs
BEGIN UPDATE iban_configs_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER iban_configs_version_after_update AFTER UPDATE ON iban_configs
BEGIN UPDATE iban_configs_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER iban_configs_version_after_delete AFTER DELETE ON iban_configs
BEGIN UPDATE iban_configs_version SET version = version + 1 WHERE id = 1; END;
