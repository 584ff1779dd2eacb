-- Institution search, third step (issue 3): search keys now count downwards.
-- Results are listed newest first. FTS5 walks a doclist forwards cheaply, but to walk it backwards it
-- must load the whole doclist of every term; a phrase of common trigrams (an institution's full name)
-- took 10-20 ms at 100,000 rows in descending rowid order and under 1 ms in ascending order. So each
-- registration now gets a smaller key than every earlier one, and "newest first" is ascending rowid.

INSERT INTO institutions_fts (institutions_fts) VALUES ('delete-all');
INSERT INTO institutions_prefix_fts (institutions_prefix_fts) VALUES ('delete-all');
DELETE FROM institution_search_keys;

INSERT INTO institution_search_keys (search_key, institution_id)
SELECT -row_number() OVER (ORDER BY created_at, rowid), id FROM institutions;

INSERT INTO institutions_fts (rowid, name, registration_number, license_number, email_address)
SELECT k.search_key, i.name, i.registration_number, coalesce(i.license_number, ''), i.email_address
FROM institutions i JOIN institution_search_keys k ON k.institution_id = i.id;

INSERT INTO institutions_prefix_fts (rowid, name, registration_number, license_number, email_address)
SELECT k.search_key, i.name, i.registration_number, coalesce(i.license_number, ''), i.email_address
FROM institutions i JOIN institution_search_keys k ON k.institution_id = i.id;

DROP TRIGGER institutions_search_after_insert;
CREATE TRIGGER institutions_search_after_insert AFTER INSERT ON institutions
BEGIN
  INSERT INTO institution_search_keys (search_key, institution_id)
  VALUES ((SELECT coalesce(min(search_key), 0) - 1 FROM institution_search_keys), new.id);
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
