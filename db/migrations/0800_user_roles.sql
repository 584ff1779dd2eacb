-- Staff roles (issue 20): a user holds any of administrator, operator, approver and auditor. The
-- server reads them on every signed-in request, so a change bumps the auth epoch like a change to
-- users does (0003_change_epochs.sql): a role removed or added applies to the very next request.
-- users.role stays as the spec's coarse label ('admin' for holders of the administrator role).
CREATE TABLE user_roles (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('administrator', 'operator', 'approver', 'auditor')),
  PRIMARY KEY (user_id, role)
) WITHOUT ROWID;

-- Administrators made before roles existed keep what they could do (administer and operate);
-- operators stay operators. The system actor holds no role.
INSERT INTO user_roles (user_id, role)
SELECT id, 'administrator' FROM users WHERE role = 'admin' AND id <> '00000000-0000-0000-0000-000000000000';
INSERT INTO user_roles (user_id, role)
SELECT id, 'operator' FROM users WHERE id <> '00000000-0000-0000-0000-000000000000';

-- An initial or reset password is known to someone else: until its holder chooses their own, the
-- session may only change it (src/server/access.ts).
ALTER TABLE user_credentials ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0
  CHECK (must_change_password IN (0, 1));

CREATE TRIGGER change_epochs_user_roles_after_insert AFTER INSERT ON user_roles
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'auth'; END;
CREATE TRIGGER change_epochs_user_roles_after_delete AFTER DELETE ON user_roles
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'auth'; END;
CREATE TRIGGER change_epochs_user_credentials_after_update AFTER UPDATE OF must_change_password ON user_credentials
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'auth'; END;
