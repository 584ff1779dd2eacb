-- Change epochs: one counter per topic, bumped by triggers whenever rows that a server process
-- keeps in memory can change, whichever process changes them. A request that answers from such a
-- cache first waits for a read of these counters that began after the request arrived
-- (src/server/change_epochs.ts): an entry read at the epoch that is still current is exactly what a
-- read of its own rows would return, so no cache is ever staler than the database, and one small
-- read serves every request of an event-loop turn instead of one read per request.
--   auth: a session deleted (sign-out, revocation, the expiry sweep); a user changed or deleted.
--         Sliding expiry (UPDATE of sessions) only lengthens a session and bumps nothing.
--   routing_codes: any change to routing_codes (the public lookup GET /api/routing-codes/{code}).
CREATE TABLE change_epochs (
  topic TEXT PRIMARY KEY NOT NULL,
  epoch INTEGER NOT NULL CHECK (epoch >= 0)
) WITHOUT ROWID;
INSERT INTO change_epochs (topic, epoch) VALUES ('auth', 0), ('routing_codes', 0);

CREATE TRIGGER change_epochs_sessions_after_delete AFTER DELETE ON sessions
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'auth'; END;
CREATE TRIGGER change_epochs_users_after_update AFTER UPDATE ON users
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'auth'; END;
CREATE TRIGGER change_epochs_users_after_delete AFTER DELETE ON users
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'auth'; END;

CREATE TRIGGER change_epochs_routing_codes_after_insert AFTER INSERT ON routing_codes
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'routing_codes'; END;
CREATE TRIGGER change_epochs_routing_codes_after_update AFTER UPDATE ON routing_codes
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'routing_codes'; END;
CREATE TRIGGER change_epochs_routing_codes_after_delete AFTER DELETE ON routing_codes
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'routing_codes'; END;
