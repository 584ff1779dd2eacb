-- Institution search, fourth step (issue 3): a version number that changes whenever the search
-- indexes' content can change, so the server may cache match counts (paging asks for the same count
-- on every page, and counting a search that matches the whole registry visits every row) and knows
-- exactly when they go stale. SQLite's data_version is no use here: it changes on every commit to any
-- table, and the API request log commits several times a second.
CREATE TABLE institutions_search_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL CHECK (version >= 0)
);
INSERT INTO institutions_search_version (id, version) VALUES (1, 0);

CREATE TRIGGER institutions_search_version_after_insert AFTER INSERT ON institutions
BEGIN
  UPDATE institutions_search_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER institutions_search_version_after_update
AFTER UPDATE OF name, registration_number, license_number, email_address ON institutions
BEGIN
  UPDATE institutions_search_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER institutions_search_version_after_delete AFTER DELETE ON institutions
BEGIN
  UPDATE institutions_search_version SET version = version + 1 WHERE id = 1;
END;
