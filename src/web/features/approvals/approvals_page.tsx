/**
 * Approvals: the queue of pending four-eyes requests, each with what it will do, the figures before
 * and after (or the roles and settings it changes), requester, reason and age; approve or reject
 * after a confirmation that restates them; the requester's own requests; the approval settings,
 * whose change is itself a request once dual control is in force.
 */
import { useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/form.tsx";
import type { FilterDef } from "../../components/ui/data_table.tsx";
import { Tabs } from "../../components/ui/tabs.tsx";
import { APPROVAL_KIND_LABELS, APPROVAL_KINDS, STORED_APPROVAL_STATUSES } from "../../../domain/approval.ts";
import { AdministrationReasonField } from "../../components/approval_reason_field.tsx";
import { useMayCall } from "../../lib/auth.ts";
import { useDualControlInForce, useDualControlRecheck } from "../../lib/dual_control.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { useToast } from "../../lib/toast.ts";
import { type ApprovalSettings, SETTINGS_KEY, useApprovalSettings, useSaveApprovalSettings } from "./api.ts";
import { RequestsTable } from "./requests_table.tsx";
import { TitledCard } from "../../components/ui/card.tsx";

const CURRENCIES = ["USD", "EUR", "GBP", "JPY"] as const;

const KIND_FILTER: FilterDef = {
  columnId: "kind",
  label: "Filter by type",
  allLabel: "All types",
  options: APPROVAL_KINDS.map((kind) => ({ value: kind, label: APPROVAL_KIND_LABELS[kind] })),
};

const STATUS_FILTER: FilterDef = {
  columnId: "status",
  label: "Filter by status",
  allLabel: "All statuses",
  options: [...STORED_APPROVAL_STATUSES, "expired" as const].map((status) => ({
    value: status,
    label: status,
  })),
};

function SettingsCard() {
  const mayChange = useMayCall("PUT", SETTINGS_KEY);
  const inForce = useDualControlInForce();
  const recheck = useDualControlRecheck();
  const { data } = useApprovalSettings();
  const [draft, setDraft] = useState<ApprovalSettings | null>(null);
  const [requestReason, setRequestReason] = useState("");
  const [reasonError, setReasonError] = useState<string | undefined>(undefined);
  const { toast } = useToast();
  const save = useSaveApprovalSettings((saved) => {
    setDraft(null);
    setRequestReason("");
    setReasonError(undefined);
    if (saved) toast({ title: "Approval settings saved" });
  }, (error) => {
    recheck(error);
    setReasonError(serverFieldErrors(error).requestReason);
  });
  const shown = draft ?? data;
  if (!shown) return null;
  const edit = (next: ApprovalSettings) => setDraft(next);
  return (
    <TitledCard
      title="Approval settings"
      description={
        <>
          A manual sweep or a card's funding that would take what its maker moved alone that UTC day in its
          currency above the threshold, and every opening balance other than 0.00, needs a second person's
          approval. Pending requests expire after the time below.
        </>
      }
    >
      <form
        className="grid gap-4 sm:grid-cols-5"
        onSubmit={(event) => {
          event.preventDefault();
          if (draft) save.mutate({ ...draft, requestReason });
        }}
      >
        {CURRENCIES.map((currency) => (
          <TextField
            key={currency}
            label={`Threshold ${currency}`}
            inputMode="decimal"
            readOnly={!mayChange}
            value={shown.thresholds[currency] ?? ""}
            onChange={(event) =>
              edit({ ...shown, thresholds: { ...shown.thresholds, [currency]: event.target.value } })}
          />
        ))}
        <TextField
          label="Expiry (minutes)"
          type="number"
          min={5}
          readOnly={!mayChange}
          value={String(shown.expiryMinutes)}
          onChange={(event) => edit({ ...shown, expiryMinutes: Number(event.target.value) })}
        />
        {mayChange && (
          <div className="space-y-4 sm:col-span-5">
            <AdministrationReasonField
              value={requestReason}
              onChange={setRequestReason}
              error={reasonError}
              asked={inForce && draft !== null}
            />
            <Button changes type="submit" disabled={!draft || save.isPending}>
              {inForce ? "Submit for approval" : "Save settings"}
            </Button>
          </div>
        )}
      </form>
    </TitledCard>
  );
}

export default function ApprovalsPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Approvals"
        subtitle="Four-eyes control: large movements of money wait here for an approver, administrators' changes to people and controls for a second administrator"
      />
      <Tabs
        label="Requests"
        urlParam="tab"
        tabs={[
          {
            id: "pending",
            label: "Pending",
            content: (
              <RequestsTable
                query="status=pending"
                urlKey="pending"
                label="Pending requests"
                emptyText="Nothing waits for approval."
                filters={[KIND_FILTER]}
              />
            ),
          },
          {
            id: "mine",
            label: "My requests",
            content: (
              <RequestsTable
                query="requestedBy=me"
                urlKey="mine"
                label="My requests"
                emptyText="You have requested nothing."
                filters={[STATUS_FILTER, KIND_FILTER]}
              />
            ),
          },
          {
            id: "all",
            label: "All requests",
            content: (
              <RequestsTable
                query=""
                urlKey="all"
                label="All requests"
                emptyText="No request has been filed yet."
                filters={[STATUS_FILTER, KIND_FILTER]}
              />
            ),
          },
        ]}
      />
      <SettingsCard />
    </div>
  );
}
