-- Institution search, fifth step (issue 3): a journal of which institution's searchable text changed
-- at which search version. Each server process keeps the searchable text of the registry in memory
-- to count a broad search's matches (FTS5 checks every trigram of the phrase at every match: 25 ms
-- for a text found in all 100,000 rows), and catches up with other processes' changes by reading the
-- journal after its own version instead of reloading the registry. The version and its journal row
-- are written by one trigger, in one statement with the change itself.
CREATE TABLE institution_search_changes (
  version INTEGER PRIMARY KEY NOT NULL,
  institution_id TEXT NOT NULL
);

-- Changes older than this many versions are dropped: a process that far behind reloads everything.
DROP TRIGGER institutions_search_version_after_insert;
CREATE TRIGGER institutions_search_version_after_insert AFTER INSERT ON institutions
BEGIN
  UPDATE institutions_search_version SET version = version + 1 WHERE id = 1;
  INSERT INTO institution_search_changes (version, institution_id)
  SELECT version, new.id FROM institutions_search_version WHERE id = 1;
  DELETE FROM institution_search_changes
  WHERE version <= (SELECT version FROM institutions_search_version WHERE id = 1) - 10000;
END;

DROP TRIGGER institutions_search_version_after_update;
CREATE TRIGGER institutions_search_version_after_update
AFTER UPDATE OF name, registration_number, license_number, email_address ON institutions
BEGIN
  UPDATE institutions_search_version SET version = version + 1 WHERE id = 1;
  INSERT INTO institution_search_changes (version, institution_id)
  SELECT version, new.id FROM institutions_search_version WHERE id = 1;
  DELETE FROM institution_search_changes
  WHERE version <= (SELECT version FROM institutions_search_version WHERE id = 1) - 10000;
END;

DROP TRIGGER institutions_search_version_after_delete;
CREATE TRIGGER institutions_search_version_after_delete AFTER DELETE ON institutions
BEGIN
  UPDATE institutions_search_version SET version = version + 1 WHERE id = 1;
  INSERT INTO institution_search_changes (version, institution_id)
  SELECT version, old.id FROM institutions_search_version WHERE id = 1;
  DELETE FROM institution_search_changes
  WHERE version <= (SELECT version FROM institutions_search_version WHERE id = 1) - 10000;
END;
