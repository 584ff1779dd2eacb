-- A stored import's file in pieces (docs/directory_import.md): on the replicated topology every
-- statement travels to the primary as one request, and sqld refuses a single argument of several
-- megabytes, so a large file is kept as ordered chunks. registry_imports.content holds the file of
-- imports stored before this migration, and is empty for those stored in chunks.
CREATE TABLE registry_import_chunks (
  import_id TEXT NOT NULL REFERENCES registry_imports(id),
  seq INTEGER NOT NULL CHECK (seq >= 0),
  content TEXT NOT NULL,
  PRIMARY KEY (import_id, seq)
);
