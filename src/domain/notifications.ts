/**
 * Notifications as people receive them: the event kinds a person may also choose to receive by
 * e-mail, and what each is called on the Notifications tab (docs/notifications.md).
 *
 * @module
 */

/**
 * The kinds published to people; the outbox's other kinds are for webhooks only (or not yet
 * published: a kind joins this list with the feature that publishes it to people).
 */
export const NOTIFICATION_KINDS = [
  "approval_requested",
  "approval_decided",
  "approval_expired",
  "connection_test_failed",
  "reconciliation_difference",
  "changes_paused",
  "account_under_attack",
  "backup_failed",
  "directory_edition_published",
  "directory_edition_failed",
  "registry_import_finished",
] as const;
export type NotificationKind = typeof NOTIFICATION_KINDS[number];

export const NOTIFICATION_KIND_LABELS: Readonly<Record<NotificationKind, string>> = {
  approval_requested: "A request waits for my decision",
  approval_decided: "My request was approved or rejected",
  approval_expired: "My request expired",
  connection_test_failed: "A connection test failed",
  reconciliation_difference: "Reconciliation found a difference",
  changes_paused: "Changes were paused at a regional node",
  account_under_attack: "My account is under attack",
  backup_failed: "A backup failed",
  directory_edition_published: "A directory edition was published",
  directory_edition_failed: "A directory edition I requested or approved could not be published",
  registry_import_finished: "A registry import I submitted or approved was applied or failed",
};
