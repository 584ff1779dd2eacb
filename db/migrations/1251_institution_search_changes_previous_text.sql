-- Issue 24: the search journal (0104) also keeps each change's previous searchable text, so a
-- cached match count can be brought up to date by the changes since it was counted (the rows that
-- matched before and the rows that match now), instead of counting every match again: at 1,000,000
-- institutions a broad search's count takes 50-300 ms, and any registration made every cached count
-- stale. previous_known is 0 on rows written before this migration (their previous text is unknown:
-- such a gap is counted again); previous_name is null for a registration (nothing before it).
ALTER TABLE institution_search_changes ADD COLUMN previous_known INTEGER NOT NULL DEFAULT 0;
ALTER TABLE institution_search_changes ADD COLUMN previous_name TEXT;
ALTER TABLE institution_search_changes ADD COLUMN previous_registration_number TEXT;
ALTER TABLE institution_search_changes ADD COLUMN previous_license_number TEXT;
ALTER TABLE institution_search_changes ADD COLUMN previous_email_address TEXT;

DROP TRIGGER institutions_search_version_after_insert;
CREATE TRIGGER institutions_search_version_after_insert AFTER INSERT ON institutions
BEGIN
  UPDATE institutions_search_version SET version = version + 1 WHERE id = 1;
  INSERT INTO institution_search_changes (version, institution_id, previous_known)
  SELECT version, new.id, 1 FROM institutions_search_version WHERE id = 1;
  DELETE FROM institution_search_changes
  WHERE version <= (SELECT version FROM institutions_search_version WHERE id = 1) - 10000;
END;

DROP TRIGGER institutions_search_version_after_update;
CREATE TRIGGER institutions_search_version_after_update
AFTER UPDATE OF name, registration_number, license_number, email_address ON institutions
BEGIN
  UPDATE institutions_search_version SET version = version + 1 WHERE id = 1;
  INSERT INTO institution_search_changes (version, institution_id, previous_known, previous_name,
    previous_registration_number, previous_license_number, previous_email_address)
  SELECT version, new.id, 1, old.name, old.registration_number, coalesce(old.license_number, ''),
    old.email_address
  FROM institutions_search_version WHERE id = 1;
  DELETE FROM institution_search_changes
  WHERE version <= (SELECT version FROM institutions_search_version WHERE id = 1) - 10000;
END;

DROP TRIGGER institutions_search_version_after_delete;
CREATE TRIGGER institutions_search_version_after_delete AFTER DELETE ON institutions
BEGIN
  UPDATE institutions_search_version SET version = version + 1 WHERE id = 1;
  INSERT INTO institution_search_changes (version, institution_id, previous_known, previous_name,
    previous_registration_number, previous_license_number, previous_email_address)
  SELECT version, old.id, 1, old.name, old.registration_number, coalesce(old.license_number, ''),
    old.email_address
  FROM institutions_search_version WHERE id = 1;
  DELETE FROM institution_search_changes
  WHERE version <= (SELECT version FROM institutions_search_version WHERE id = 1) - 10000;
END;
