/**
 * Four-eyes (maker-checker) rules: which requests there are, when an amount needs a
 * second person, and what state a request is in at a given instant.
 *
 * @module
 */

/** Requests about money and institutions, decided by an approver. */
const MONEY_KINDS = [
  "sweep",
  "auto_sweep",
  "opening_balance",
  "card_issue",
  "card_distribute",
  "card_load",
  "institution_status",
  "institution_change",
  "directory_edition",
] as const;

/** Requests about people and controls, decided by a second administrator rather than an approver. */
const ADMINISTRATION_KINDS = [
  "user_create",
  "user_update",
  "user_reset_password",
  "approval_settings",
  "sign_in_settings",
  "security_settings",
  "account_outflow_limit",
  "identity_link",
] as const;

export const APPROVAL_KINDS = [...MONEY_KINDS, ...ADMINISTRATION_KINDS] as const;
export type ApprovalKind = typeof APPROVAL_KINDS[number];

export function scopeOfKind(kind: ApprovalKind): "money" | "administration" {
  return (ADMINISTRATION_KINDS as readonly string[]).includes(kind) ? "administration" : "money";
}

export const APPROVAL_KIND_LABELS: Readonly<Record<ApprovalKind, string>> = {
  sweep: "Manual sweep",
  auto_sweep: "Automatic sweep run",
  opening_balance: "Opening balance",
  card_issue: "Card issuance",
  card_distribute: "Card distribution",
  card_load: "Card load",
  institution_status: "Institution status change",
  institution_change: "Institution details change",
  directory_edition: "Directory edition",
  user_create: "New user",
  user_update: "Role grant or re-enabling",
  user_reset_password: "Password reset",
  approval_settings: "Approval thresholds and limits",
  sign_in_settings: "Sign-in settings",
  security_settings: "Session timeout and password policy",
  account_outflow_limit: "Account daily outflow limit",
  identity_link: "Provider identity link",
};

export const STORED_APPROVAL_STATUSES = ["pending", "approved", "rejected", "cancelled"] as const;
export type StoredApprovalStatus = typeof STORED_APPROVAL_STATUSES[number];
/** "expired" is never stored: a pending request past its expiry is expired from that instant on. */
export type ApprovalStatus = StoredApprovalStatus | "expired";

/** 1,000,000.00 in minor units, for every currency until an administrator says otherwise. */
export const DEFAULT_THRESHOLD_MINOR = 100_000_000n;
export const DEFAULT_REQUEST_TTL_MINUTES = 24 * 60;
export const MIN_REQUEST_TTL_MINUTES = 5;
export const MAX_REQUEST_TTL_MINUTES = 30 * 24 * 60;
export const MAX_REASON_LENGTH = 1_000;

/**
 * Money that appears from nowhere: an account opened with any balance other than zero needs a
 * second person, whatever the amount (an account opened empty is funded by movements, which follow
 * their own rules).
 */
export function openingBalanceNeedsApproval(openingMinor: bigint): boolean {
  return openingMinor !== 0n;
}

/** Strictly above the threshold (a manual sweep, a card's funding) needs approval; at or below it a movement executes at once. */
export function amountNeedsApproval(amountMinor: bigint, thresholdMinor: bigint): boolean {
  return amountMinor > thresholdMinor;
}

export function statusAt(stored: StoredApprovalStatus, expiresAt: string, now: Date): ApprovalStatus {
  return stored === "pending" && Date.parse(expiresAt) <= now.getTime() ? "expired" : stored;
}
