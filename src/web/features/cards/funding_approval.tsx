/**
 * A card's funding, said before submitting: whether it executes or goes to approval (the server's
 * preview), and the maker's reason, required when it goes to approval.
 */
import { ApprovalPreviewNote } from "../../components/approval_preview.tsx";
import { ApprovalReasonField } from "../../components/approval_reason_field.tsx";
import { type ApprovalPreview, useApprovalPreview } from "../../lib/approval.ts";

export const FUNDING_REASON_REQUIRED = "Give a reason: this funding needs a second person's approval";

/** The preview of funding `amount` from `fundingSource` (the treasury unless named); null while no amount moves. */
export function useFundingPreview(
  action: "card_issue" | "card_distribute" | "card_load",
  amount: string,
  fundingSource?: string,
): ApprovalPreview | null {
  const moves = /[1-9]/.test(amount);
  return useApprovalPreview(moves ? { action, amount, fundingSource } : null);
}

/** The reason's error when the funding goes to approval and none is given. */
export function missingFundingReason(preview: ApprovalPreview | null, reason: string): string | undefined {
  return preview?.outcome === "approval" && !reason.trim() ? FUNDING_REASON_REQUIRED : undefined;
}

export function FundingApproval({ preview, reason, onReason, error }: {
  preview: ApprovalPreview | null;
  reason: string;
  onReason: (value: string) => void;
  error?: string;
}) {
  return (
    <div className="space-y-4 sm:col-span-2">
      <ApprovalPreviewNote preview={preview} />
      <ApprovalReasonField
        value={reason}
        onChange={onReason}
        error={error}
        required={preview?.outcome === "approval"}
      />
    </div>
  );
}
