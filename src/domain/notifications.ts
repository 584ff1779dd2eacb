/**
 * Notifications as people receive them: which event kinds reach a person's bell (and, if they choose,
 * their e-mail), what each is called, and who an event is addressed to (docs/notifications.md).
 *
 * @module
 */
import type { Role } from "./access.ts";

/** The kinds addressed to people; the outbox's other kinds are for webhooks only. */
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
};

export function isNotificationKind(kind: string): kind is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(kind);
}

/** An event's addressees as stored in the outbox. */
export interface StoredAudience {
  recipientUserId: string | null;
  recipientRoles: readonly string[] | null;
  excludedUserId: string | null;
}

/**
 * Whether a user sees an event: never when excluded (the requester of their own request), else
 * when addressed by id or holding one of the addressed roles. The feed's SQL says the same.
 */
export function isAddressedTo(audience: StoredAudience, userId: string, roles: readonly Role[]): boolean {
  if (audience.excludedUserId === userId) return false;
  if (audience.recipientUserId === userId) return true;
  return (audience.recipientRoles ?? []).some((role) => (roles as readonly string[]).includes(role));
}

