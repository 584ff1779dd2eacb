-- One person, one identity: each account's e-mail address also as its confusable skeleton (Unicode
-- UTS #39), under a unique index, so that two accounts whose addresses look alike cannot both exist.
-- SQL cannot compute a skeleton: rows written before this column get theirs at start
-- (src/server/auth/identity.ts fillEmailSkeletons); NULL, which the index allows many times, until then.
ALTER TABLE users ADD COLUMN email_skeleton TEXT;
CREATE UNIQUE INDEX users_email_skeleton_idx ON users(email_skeleton);
