-- Signed directory editions (docs/directory.md). An edition is published once, by the approval of its
-- four-eyes request, and never changes: its row, its files and their bytes refuse UPDATE and DELETE,
-- and nothing can be added to an edition once its row exists (the files are written first, the
-- edition row last, in one transaction). Everything lives in the database so that every regional
-- replica serves the files locally.

-- The public halves of the console's Ed25519 directory keys; the private key stays in DATA_DIR.
CREATE TABLE directory_signing_keys (
  key_id TEXT PRIMARY KEY NOT NULL,
  public_key_pem TEXT NOT NULL,
  public_key_jwk TEXT NOT NULL CHECK (json_valid(public_key_jwk)),
  created_at TEXT NOT NULL
);
CREATE TRIGGER directory_signing_keys_no_update BEFORE UPDATE ON directory_signing_keys
BEGIN
  SELECT RAISE(ABORT, 'a directory signing key never changes');
END;
CREATE TRIGGER directory_signing_keys_no_delete BEFORE DELETE ON directory_signing_keys
BEGIN
  SELECT RAISE(ABORT, 'a directory signing key is kept: published editions name it');
END;

-- One row per file of an edition: its name (full.csv, …), type, size in bytes and SHA-256 (hex) of
-- its uncompressed bytes, as the manifest states them.
CREATE TABLE directory_edition_files (
  edition_number INTEGER NOT NULL CHECK (edition_number >= 1),
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL CHECK (size_bytes >= 0),
  sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
  PRIMARY KEY (edition_number, name)
);
-- The file's gzip stream, cut in pieces so that no row is large and a download streams piece by piece.
CREATE TABLE directory_file_chunks (
  edition_number INTEGER NOT NULL,
  name TEXT NOT NULL,
  seq INTEGER NOT NULL CHECK (seq >= 0),
  data BLOB NOT NULL,
  PRIMARY KEY (edition_number, name, seq)
);

CREATE TABLE directory_editions (
  number INTEGER PRIMARY KEY NOT NULL CHECK (number >= 1),
  effective_date TEXT NOT NULL,
  previous_number INTEGER REFERENCES directory_editions(number),
  reason TEXT NOT NULL,
  published_at TEXT NOT NULL,
  requested_by TEXT REFERENCES users(id),
  approved_by TEXT REFERENCES users(id),
  key_id TEXT NOT NULL REFERENCES directory_signing_keys(key_id),
  counts TEXT NOT NULL CHECK (json_valid(counts)),
  -- The manifest's exact bytes (UTF-8 JSON) as signed, the raw 64-byte Ed25519 signature, and the
  -- detached JWS (RFC 7515 appendix F).
  manifest TEXT NOT NULL,
  signature BLOB NOT NULL CHECK (length(signature) = 64),
  jws TEXT NOT NULL,
  CHECK ((number = 1 AND previous_number IS NULL) OR previous_number = number - 1)
);
CREATE INDEX directory_editions_previous_idx ON directory_editions(previous_number);
CREATE INDEX directory_editions_requested_by_idx ON directory_editions(requested_by);
CREATE INDEX directory_editions_approved_by_idx ON directory_editions(approved_by);
CREATE INDEX directory_editions_key_idx ON directory_editions(key_id);

CREATE TRIGGER directory_editions_no_update BEFORE UPDATE ON directory_editions
BEGIN
  SELECT RAISE(ABORT, 'a published directory edition never changes');
END;
CREATE TRIGGER directory_editions_no_delete BEFORE DELETE ON directory_editions
BEGIN
  SELECT RAISE(ABORT, 'a published directory edition never changes');
END;
CREATE TRIGGER directory_edition_files_no_update BEFORE UPDATE ON directory_edition_files
BEGIN
  SELECT RAISE(ABORT, 'a published directory edition never changes');
END;
CREATE TRIGGER directory_edition_files_no_delete BEFORE DELETE ON directory_edition_files
BEGIN
  SELECT RAISE(ABORT, 'a published directory edition never changes');
END;
CREATE TRIGGER directory_edition_files_closed BEFORE INSERT ON directory_edition_files
WHEN EXISTS (SELECT 1 FROM directory_editions WHERE number = NEW.edition_number)
BEGIN
  SELECT RAISE(ABORT, 'a published directory edition never changes');
END;
CREATE TRIGGER directory_file_chunks_no_update BEFORE UPDATE ON directory_file_chunks
BEGIN
  SELECT RAISE(ABORT, 'a published directory edition never changes');
END;
CREATE TRIGGER directory_file_chunks_no_delete BEFORE DELETE ON directory_file_chunks
BEGIN
  SELECT RAISE(ABORT, 'a published directory edition never changes');
END;
CREATE TRIGGER directory_file_chunks_closed BEFORE INSERT ON directory_file_chunks
WHEN EXISTS (SELECT 1 FROM directory_editions WHERE number = NEW.edition_number)
BEGIN
  SELECT RAISE(ABORT, 'a published directory edition never changes');
END;
