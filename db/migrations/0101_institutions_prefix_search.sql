-- Institution search, second step (issue 3).
-- 1-2 character queries now use a word-prefix FTS5 index instead of the NOCASE ranges of 0100: a
-- query such as "c" can match every row, and only an index that stores the matching rows in
-- registration order can count them and return the newest page in a few milliseconds.
-- Both indexes now also ignore accents, so "credit" finds "Crédit".

CREATE VIRTUAL TABLE institutions_prefix_fts USING fts5(
  name,
  registration_number,
  license_number,
  email_address,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '1 2',
  content = '',
  contentless_delete = 1
);

DROP TABLE institutions_fts;
CREATE VIRTUAL TABLE institutions_fts USING fts5(
  name,
  registration_number,
  license_number,
  email_address,
  tokenize = 'trigram remove_diacritics 1',
  content = '',
  contentless_delete = 1
);

-- Merge index segments as soon as two share a level (FTS5's default waits for four): registrations
-- are rare and small, and a phrase query costs roughly one doclist walk per segment per trigram.
INSERT INTO institutions_fts (institutions_fts, rank) VALUES ('automerge', 2);
INSERT INTO institutions_prefix_fts (institutions_prefix_fts, rank) VALUES ('automerge', 2);

INSERT INTO institutions_fts (rowid, name, registration_number, license_number, email_address)
SELECT k.search_key, i.name, i.registration_number, coalesce(i.license_number, ''), i.email_address
FROM institutions i JOIN institution_search_keys k ON k.institution_id = i.id;

INSERT INTO institutions_prefix_fts (rowid, name, registration_number, license_number, email_address)
SELECT k.search_key, i.name, i.registration_number, coalesce(i.license_number, ''), i.email_address
FROM institutions i JOIN institution_search_keys k ON k.institution_id = i.id;

DROP TRIGGER institutions_search_after_insert;
CREATE TRIGGER institutions_search_after_insert AFTER INSERT ON institutions
BEGIN
  INSERT INTO institution_search_keys (institution_id) VALUES (new.id);
  INSERT INTO institutions_fts (rowid, name, registration_number, license_number, email_address)
  VALUES (
    (SELECT search_key FROM institution_search_keys WHERE institution_id = new.id),
    new.name, new.registration_number, coalesce(new.license_number, ''), new.email_address
  );
  INSERT INTO institutions_prefix_fts (rowid, name, registration_number, license_number, email_address)
  VALUES (
    (SELECT search_key FROM institution_search_keys WHERE institution_id = new.id),
    new.name, new.registration_number, coalesce(new.license_number, ''), new.email_address
  );
END;

DROP TRIGGER institutions_search_after_update;
CREATE TRIGGER institutions_search_after_update
AFTER UPDATE OF name, registration_number, license_number, email_address ON institutions
BEGIN
  DELETE FROM institutions_fts
  WHERE rowid = (SELECT search_key FROM institution_search_keys WHERE institution_id = old.id);
  DELETE FROM institutions_prefix_fts
  WHERE rowid = (SELECT search_key FROM institution_search_keys WHERE institution_id = old.id);
  INSERT INTO institutions_fts (rowid, name, registration_number, license_number, email_address)
  VALUES (
    (SELECT search_key FROM institution_search_keys WHERE institution_id = new.id),
    new.name, new.registration_number, coalesce(new.license_number, ''), new.email_address
  );
  INSERT INTO institutions_prefix_fts (rowid, name, registration_number, license_number, email_address)
  VALUES (
    (SELECT search_key FROM institution_search_keys WHERE institution_id = new.id),
    new.name, new.registration_number, coalesce(new.license_number, ''), new.email_address
  );
END;

DROP TRIGGER institutions_search_before_delete;
CREATE TRIGGER institutions_search_before_delete BEFORE DELETE ON institutions
BEGIN
  DELETE FROM institutions_fts
  WHERE rowid = (SELECT search_key FROM institution_search_keys WHERE institution_id = old.id);
  DELETE FROM institutions_prefix_fts
  WHERE rowid = (SELECT search_key FROM institution_search_keys WHERE institution_id = old.id);
END;

-- The NOCASE ranges are gone; the registration number's case-insensitive UNIQUE index stays.
DROP INDEX institutions_name_nocase_idx;
DROP INDEX institutions_license_number_nocase_idx;
DROP INDEX institutions_email_address_nocase_idx;
