/**
 * Four-eyes answers: an action above its approval threshold, or an administrator's change that gives
 * power once dual control is in force, answers 202 with a pending request instead of its result.
 * Screens show that it waits for a second person, never that it happened, and word what it will do.
 */
import { useEffect, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ApprovalKind, scopeOfKind } from "../../domain/approval.ts";
import { parseMoney } from "../../domain/money.ts";
import type { ApprovalRequestDto } from "../../server/features/approvals/four_eyes.ts";
import type { ApprovalPreview } from "../../server/features/approvals/preview.ts";
import { useMayCall } from "./auth.ts";
import { formatCurrency } from "./format.ts";
import { APPROVALS_KEY } from "./pending_approvals.ts";
import { type ToastInput, useToast } from "./toast.ts";

export { APPROVALS_KEY, PENDING_APPROVALS_KEY, usePendingApprovalCount } from "./pending_approvals.ts";

export interface ApprovalFigures {
  accountNumber?: string;
  accountName?: string;
  balanceBefore?: string | null;
  balanceAfter?: string | null;
}

/** What a request about people or controls will change (src/server/features/users/requests.ts and the settings' drafts). */
export interface AdministrationSummary {
  /** The account concerned; roles are their labels ("Approver"). */
  email?: string;
  name?: string | null;
  roles?: string[];
  rolesBefore?: string[];
  rolesAfter?: string[];
  reEnable?: boolean;
  /** Approval settings: thresholds as decimal strings per currency, the requests' expiry. */
  thresholds?: Record<string, string>;
  expiryMinutes?: number;
  /** Sign-in settings. */
  mfaRequired?: boolean;
  /** Security settings: the idle timeout in minutes and the password policy. */
  sessionTimeout?: number;
  passwordPolicy?: string;
  /** An account's daily outflow limit (decimal string, or null to remove it). */
  accountNumber?: string;
  currency?: string;
  dailyOutflowLimit?: string | null;
  /** A provider identity to link. */
  issuer?: string;
  subject?: string;
}

/** The server's request, with the summary typed as the screens read it. */
export interface ApprovalRequest extends Omit<ApprovalRequestDto, "summary"> {
  summary: AdministrationSummary & {
    /** Money kinds: what moves; administration kinds have none (describeRequest words them). */
    description?: string;
    source?: ApprovalFigures | null;
    target?: ApprovalFigures;
    account?: ApprovalFigures;
    institution?: { id: string; name: string; statusBefore: string; statusAfter: string; reason?: string | null };
  };
}

const roleList = (roles: readonly string[] | undefined) => roles && roles.length > 0 ? roles.join(", ") : "no role";

function describeUserUpdate({ email, rolesBefore, rolesAfter, reEnable }: AdministrationSummary): string {
  const rolesChange = roleList(rolesBefore) !== roleList(rolesAfter);
  if (!reEnable) return `Change the roles of ${email}`;
  return rolesChange ? `Re-enable ${email} and change the roles` : `Re-enable ${email}`;
}

/** One line saying what the request will do, for the queue, the decision and the toasts. */
export function describeRequest(request: Pick<ApprovalRequest, "kind" | "summary">): string {
  const summary = request.summary;
  switch (request.kind) {
    case "user_create":
      return `New user ${summary.email}${summary.name ? ` (${summary.name})` : ""}: ${roleList(summary.roles)}`;
    case "user_update":
      return describeUserUpdate(summary);
    case "user_reset_password":
      return `New one-time password for ${summary.email}`;
    case "approval_settings":
      return "Change the approval thresholds and limits";
    case "sign_in_settings":
      return summary.mfaRequired
        ? "Require a second factor of every user at sign-in"
        : "Stop requiring a second factor of every user (administrators still need one)";
    case "security_settings":
      return `Session timeout ${summary.sessionTimeout} minutes, password policy ${summary.passwordPolicy}`;
    case "account_outflow_limit":
      return summary.dailyOutflowLimit
        ? `Limit the daily outflow of account ${summary.accountNumber} to ${
          formatCurrency(summary.dailyOutflowLimit, summary.currency ?? "USD")
        }`
        : `Remove the daily outflow limit of account ${summary.accountNumber}`;
    case "identity_link":
      return `Link the provider identity ${summary.subject} (${summary.issuer}) to a user`;
    default:
      return summary.description ?? "";
  }
}

/** The figures of a request about people or controls: roles before and after, thresholds, the setting. */
export function administrationDetails(request: Pick<ApprovalRequest, "kind" | "summary">): string[] {
  const summary = request.summary;
  if (scopeOfKind(request.kind) !== "administration") return [];
  const lines: string[] = [];
  if (request.kind === "user_update") {
    lines.push(`Roles: ${roleList(summary.rolesBefore)} → ${roleList(summary.rolesAfter)}`);
    if (summary.reEnable) lines.push("Re-enables the disabled account");
  }
  for (const [currency, amount] of Object.entries(summary.thresholds ?? {})) {
    lines.push(`Threshold ${currency}: ${formatCurrency(amount, currency)}`);
  }
  if (summary.expiryMinutes !== undefined) lines.push(`Requests expire after ${summary.expiryMinutes} minutes`);
  if (summary.mfaRequired !== undefined) {
    lines.push(`Second factor for every user: ${summary.mfaRequired ? "required" : "not required"}`);
  }
  return lines;
}

export interface PendingApproval {
  status: "pending_approval";
  message: string;
  approvalRequest: ApprovalRequest;
  /** Why the movement needs a second person: the maker's day total, an account's daily outflow limit. */
  reasons?: string[];
}

export function isPendingApproval(body: unknown): body is PendingApproval {
  return typeof body === "object" && body !== null &&
    (body as { status?: unknown }).status === "pending_approval";
}

export function pendingToast(pending: PendingApproval): ToastInput {
  const request = pending.approvalRequest;
  if (scopeOfKind(request.kind) === "administration") {
    return { title: "Submitted for approval", description: `${describeRequest(request)}. ${pending.message}.` };
  }
  const why = (pending.reasons ?? []).map((reason) => `${reason}. `).join("");
  return {
    title: "Submitted for approval",
    description:
      `${describeRequest(request)}. ${why}A second person with the approver role must approve it; nothing has moved yet.`,
  };
}

/** The maker's reason of a four-eyes request travels only when one is given. */
export function withRequestReason(body: Record<string, unknown>, requestReason: string): Record<string, unknown> {
  return { ...body, ...(requestReason.trim() ? { requestReason: requestReason.trim() } : {}) };
}

/**
 * For an action's success handler: when the answer is a pending request, says so, refreshes the
 * approval queue and badge, and returns true (the caller then shows no "done" message).
 */
export function useOnPendingApproval(): <T>(result: T | PendingApproval) => result is PendingApproval {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  return <T>(result: T | PendingApproval): result is PendingApproval => {
    if (!isPendingApproval(result)) return false;
    toast(pendingToast(result));
    queryClient.invalidateQueries({
      predicate: (query) => String(query.queryKey[0]).startsWith(APPROVALS_KEY),
    });
    return true;
  };
}

export type { ApprovalPreview };

/** What the preview weighs: the action and, for money, the amount and where it comes from. */
export interface PreviewAsk {
  action: ApprovalKind;
  amount?: string;
  currency?: string;
  accountId?: string;
  fundingSource?: string;
}

/** Typing settles before the server is asked again. */
const PREVIEW_SETTLE_MS = 250;

function useSettled<T>(value: T): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), PREVIEW_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * Live from the server (GET /api/approvals/preview): whether the action would execute at once or go
 * to approval, with the threshold and the maker's day total; null while an amount is missing or
 * unreadable. The server decides again when the action is submitted.
 */
export function useApprovalPreview(ask: PreviewAsk | null): ApprovalPreview | null {
  // Only makers may ask; to anyone else the route answers 403.
  const allowed = useMayCall("GET", `${APPROVALS_KEY}/preview`);
  const url = useSettled(allowed && ask ? previewUrl(ask) : null);
  const { data } = useQuery<ApprovalPreview>({
    queryKey: [url],
    enabled: url !== null,
    placeholderData: keepPreviousData,
  });
  return url === null ? null : data ?? null;
}

function previewUrl(ask: PreviewAsk): string | null {
  if (ask.amount !== undefined && !parseMoney(ask.amount).ok) return null;
  const query = new URLSearchParams(
    Object.entries(ask).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== ""),
  );
  return `${APPROVALS_KEY}/preview?${query}`;
}
