-- Directory editions are published in the background (docs/directory.md, "Publication"): the approval
-- of a directory_edition request queues the edition here, and headquarters' publisher builds its
-- files in bounded transactions, then writes the edition row last, with its audit row and its event.
CREATE TABLE directory_edition_queue (
  approval_request_id TEXT PRIMARY KEY NOT NULL REFERENCES approval_requests(id),
  effective_date TEXT NOT NULL,
  reason TEXT NOT NULL,
  requested_by TEXT REFERENCES users(id),
  approved_by TEXT REFERENCES users(id),
  approved_at TEXT NOT NULL,
  -- publishing: approved and waiting for (or in) its build; published: its edition row exists,
  -- failed: the registry could not be published as it stood (last_error says why).
  state TEXT NOT NULL DEFAULT 'publishing' CHECK (state IN ('publishing', 'published', 'failed')),
  -- The number the edition takes: reserved at approval (one edition publishes at a time), and free
  -- again when its build failed.
  number INTEGER NOT NULL CHECK (number >= 1),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX directory_edition_queue_state_idx ON directory_edition_queue(state, approved_at);
CREATE INDEX directory_edition_queue_requested_by_idx ON directory_edition_queue(requested_by);
CREATE INDEX directory_edition_queue_approved_by_idx ON directory_edition_queue(approved_by);
CREATE UNIQUE INDEX directory_edition_queue_number_idx ON directory_edition_queue(number) WHERE state <> 'failed';

-- A build's pieces are written before its edition row exists, each batch in its own transaction; the
-- pieces of a build that was interrupted are removed when it is retried. Once the edition row exists
-- its pieces never change, as before.
DROP TRIGGER directory_file_chunks_no_delete;
CREATE TRIGGER directory_file_chunks_no_delete BEFORE DELETE ON directory_file_chunks
WHEN EXISTS (SELECT 1 FROM directory_editions WHERE number = OLD.edition_number)
BEGIN
  SELECT RAISE(ABORT, 'a published directory edition never changes');
END;

-- The records in force at an edition date are read in file order (by key), page after page.
CREATE INDEX registry_versions_institution_key_idx ON registry_versions(json_extract(data, '$.registrationNumber'))
  WHERE entity_type = 'institution';
CREATE INDEX registry_versions_routing_code_key_idx ON registry_versions(json_extract(data, '$.code'))
  WHERE entity_type = 'routing_code';
CREATE INDEX registry_versions_swift_code_key_idx ON registry_versions(json_extract(data, '$.bicCode'))
  WHERE entity_type = 'swift_code';

-- Every version written or refolded moves the registry epoch: the next edition's preview is cached
-- per epoch, and a build checks at its end that the registry it read did not move meanwhile.
INSERT INTO change_epochs (topic, epoch) VALUES ('registry', 0);
CREATE TRIGGER change_epochs_registry_versions_after_insert AFTER INSERT ON registry_versions
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'registry'; END;
CREATE TRIGGER change_epochs_registry_versions_after_update AFTER UPDATE OF valid_from, valid_to, data ON registry_versions
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'registry'; END;
