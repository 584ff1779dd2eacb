-- Provider identities are linked by an administrator (POST /api/users/:id/identities), never by an
-- e-mail address. Before, the first single sign-on of a provider account whose verified e-mail
-- matched a console account linked the two, break-glass administrators included, and several
-- provider accounts could be linked to one user that way. Those links are withdrawn: a link to an
-- account with a local password could only have been made by e-mail (accounts that single sign-on
-- creates have none), and of several links of one user at one issuer only the first, the one that
-- created the account, stays. The people concerned are refused at their next single sign-on with a
-- message saying an administrator must link them.
DELETE FROM user_identities WHERE user_id IN (SELECT user_id FROM user_credentials);
DELETE FROM user_identities WHERE EXISTS (
  SELECT 1 FROM user_identities earlier
  WHERE earlier.user_id = user_identities.user_id AND earlier.issuer = user_identities.issuer
    AND (earlier.created_at < user_identities.created_at
      OR (earlier.created_at = user_identities.created_at AND earlier.subject < user_identities.subject))
);
-- One identity per user per issuer.
CREATE UNIQUE INDEX user_identities_user_issuer_idx ON user_identities(user_id, issuer);
