-- Institution search (issue 3): case-insensitive substring search over name, registration number,
-- licence number and e-mail, served by an FTS5 trigram index so it stays fast at 100,000 rows.
-- Queries of 1-2 characters (too short for trigrams) use the NOCASE indexes below as prefix ranges.

-- A stable integer key per institution for the FTS rowid. institutions has a TEXT primary key, so
-- its own rowid may be renumbered by VACUUM; this table's INTEGER PRIMARY KEY never is. Keys are
-- handed out in registration order, so "rowid DESC" in the index means newest first.
CREATE TABLE institution_search_keys (
  search_key INTEGER PRIMARY KEY,
  institution_id TEXT NOT NULL UNIQUE REFERENCES institutions(id) ON DELETE CASCADE
);

-- Contentless: the text lives in institutions; the index holds only trigrams (case-folded).
CREATE VIRTUAL TABLE institutions_fts USING fts5(
  name,
  registration_number,
  license_number,
  email_address,
  tokenize = 'trigram',
  content = '',
  contentless_delete = 1
);

INSERT INTO institution_search_keys (institution_id)
SELECT id FROM institutions ORDER BY created_at, rowid;

INSERT INTO institutions_fts (rowid, name, registration_number, license_number, email_address)
SELECT k.search_key, i.name, i.registration_number, coalesce(i.license_number, ''), i.email_address
FROM institutions i JOIN institution_search_keys k ON k.institution_id = i.id;

CREATE TRIGGER institutions_search_after_insert AFTER INSERT ON institutions
BEGIN
  INSERT INTO institution_search_keys (institution_id) VALUES (new.id);
  INSERT INTO institutions_fts (rowid, name, registration_number, license_number, email_address)
  VALUES (
    (SELECT search_key FROM institution_search_keys WHERE institution_id = new.id),
    new.name, new.registration_number, coalesce(new.license_number, ''), new.email_address
  );
END;

CREATE TRIGGER institutions_search_after_update
AFTER UPDATE OF name, registration_number, license_number, email_address ON institutions
BEGIN
  DELETE FROM institutions_fts
  WHERE rowid = (SELECT search_key FROM institution_search_keys WHERE institution_id = old.id);
  INSERT INTO institutions_fts (rowid, name, registration_number, license_number, email_address)
  VALUES (
    (SELECT search_key FROM institution_search_keys WHERE institution_id = new.id),
    new.name, new.registration_number, coalesce(new.license_number, ''), new.email_address
  );
END;

CREATE TRIGGER institutions_search_before_delete BEFORE DELETE ON institutions
BEGIN
  DELETE FROM institutions_fts
  WHERE rowid = (SELECT search_key FROM institution_search_keys WHERE institution_id = old.id);
END;

-- The search key (and every reference to the institution) hangs off the id: it never changes.
CREATE TRIGGER institutions_id_immutable BEFORE UPDATE OF id ON institutions
WHEN new.id IS NOT old.id
BEGIN
  SELECT RAISE(ABORT, 'institutions.id cannot change');
END;

-- Prefix ranges for 1-2 character queries, folded like the trigram index (ASCII case).
-- Registration numbers are also unique regardless of case: "reg-1" and "REG-1" are one number.
CREATE UNIQUE INDEX institutions_registration_number_nocase_idx
  ON institutions(registration_number COLLATE NOCASE);
CREATE INDEX institutions_name_nocase_idx ON institutions(name COLLATE NOCASE);
CREATE INDEX institutions_license_number_nocase_idx ON institutions(license_number COLLATE NOCASE);
CREATE INDEX institutions_email_address_nocase_idx ON institutions(email_address COLLATE NOCASE);

-- Dashboard stats (GET /api/dashboard/stats) count from indexes alone.
CREATE INDEX institutions_swift_participant_idx ON institutions(swift_participant) WHERE swift_participant = 1;
CREATE INDEX routing_codes_status_created_at_idx ON routing_codes(status, created_at);
