-- Issue 24: the institutions topic of the change epochs (0003), bumped by every change to an
-- institution's row, whichever column and whichever process. The registry's list and search pages
-- are answered from memory while it has not moved (src/server/features/institutions/page_cache.ts):
-- a page shows every field, so a status change must invalidate it as surely as a new name.
-- (institutions_search_version, 0103, moves only with the searched fields and keeps serving the
-- match counts, which a status change cannot alter.)
INSERT INTO change_epochs (topic, epoch) VALUES ('institutions', 0);

CREATE TRIGGER change_epochs_institutions_after_insert AFTER INSERT ON institutions
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'institutions'; END;
CREATE TRIGGER change_epochs_institutions_after_update AFTER UPDATE ON institutions
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'institutions'; END;
CREATE TRIGGER change_epochs_institutions_after_delete AFTER DELETE ON institutions
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'institutions'; END;
