/**
 * What the routing code, BIC and national routing screens share about records over time
 * (docs/codes.md): the changes still to come beside a row, a record's history with who requested
 * and approved each version, and the four-eyes status change with its effective date.
 */
import { type FormEvent, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { HistoryEntry } from "../../server/registry_history/versions.ts";
import type { PendingChange } from "../../server/registry_history/code_changes.ts";
import { instantLabel } from "../../domain/code_lifecycle.ts";
import { apiJson } from "../lib/api.ts";
import type { PendingApproval } from "../lib/approval.ts";
import { formatDateTime, titleCase } from "../lib/format.ts";
import { invalidateAll, useApprovableMutation } from "../lib/mutation.ts";
import { Dialog } from "./ui/dialog.tsx";
import { SelectField, TextAreaField, TextField } from "./ui/form.tsx";
import { DialogActions } from "./dialog_actions.tsx";
import { Button } from "./ui/button.tsx";
import { IfAllowed } from "./if_allowed.tsx";
import { Spinner } from "./ui/spinner.tsx";
import type { ColumnDef } from "./ui/data_table.tsx";

const MAX_REASON_LENGTH = 1000;
export const EFFECTIVE_DATE_HINT = "Leave empty for at once; a date takes effect at 00:00 UTC that day";

/** "from 2027-03-01: Status active → suspended", one line per change still to come. */
function PendingChanges({ changes }: { changes: readonly PendingChange[] }) {
  if (changes.length === 0) return <span className="text-slate-600">—</span>;
  return (
    <ul className="space-y-1 text-xs text-amber-900" aria-label="Changes to come">
      {changes.map((change) => (
        <li key={`${change.validFrom}${change.summary}`}>
          from {instantLabel(change.validFrom)}: {change.summary}
        </li>
      ))}
    </ul>
  );
}

/** The "Changes to Come" column of a list whose rows carry their pending changes. */
export function pendingChangesColumn<T extends { pendingChanges: readonly PendingChange[] }>(): ColumnDef<T> {
  return {
    id: "pendingChanges",
    header: "Changes to Come",
    enableSorting: false,
    cell: ({ row }) => <PendingChanges changes={row.original.pendingChanges} />,
  };
}

/** The "Successor" column of a code list: the successor, else whether the deletion is announced. */
export function successorColumn<T extends { deletionAnnounced: boolean }>(
  successorOf: (row: T) => string | null,
): ColumnDef<T> {
  return {
    id: "successor",
    header: "Successor",
    accessorFn: (row) => successorOf(row) ?? "",
    meta: { cellClassName: "font-mono" },
    cell: ({ row }) =>
      successorOf(row.original) ?? (row.original.deletionAnnounced ? "Deletion announced" : "—"),
  };
}

function HistoryTable({ entries }: { entries: readonly HistoryEntry[] }) {
  return (
    <table className="w-full text-left text-sm">
      <thead className="text-xs uppercase text-slate-600">
        <tr>
          <th className="py-1 pr-3">Valid from</th>
          <th className="py-1 pr-3">Valid to</th>
          <th className="py-1 pr-3">Change</th>
          <th className="py-1 pr-3">Requested by</th>
          <th className="py-1">Approved by</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.seq} className="border-t border-slate-200 align-top">
            <td className="py-1 pr-3">{formatDateTime(entry.validFrom)}</td>
            <td className="py-1 pr-3">{entry.validTo ? formatDateTime(entry.validTo) : "—"}</td>
            <td className="py-1 pr-3">
              {entry.summary}
              {!entry.inForce && <span className="ml-2 text-xs font-medium text-amber-800">To come</span>}
            </td>
            <td className="py-1 pr-3">{entry.requestedBy?.name ?? "System"}</td>
            <td className="py-1">{entry.approvedBy?.name ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A record's versions, newest first, read when the dialog opens. */
export function HistoryDialog({ open, onClose, title, path }: {
  open: boolean;
  onClose: () => void;
  title: string;
  path: string;
}) {
  const history = useQuery<HistoryEntry[]>({ queryKey: [path], enabled: open });
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description="Every version with its dates and people."
      wide
    >
      {history.isLoading && <Spinner />}
      {history.isError && <p className="text-sm text-red-700">The history could not be loaded.</p>}
      {history.data && <HistoryTable entries={history.data} />}
      <div className="mt-4 flex justify-end">
        <Button variant="outline" changes={false} onClick={onClose}>Close</Button>
      </div>
    </Dialog>
  );
}

export interface StatusChangeTarget {
  /** "routing code CBR00000142": how the dialog names the record. */
  subject: string;
  /** The PATCH route, e.g. /api/routing-codes/CBR00000142/status, and its rule's pattern. */
  path: string;
  rulePath: string;
  current: string;
  statuses: readonly string[];
  /** The request's status field: "status" for codes, "participantStatus" for registry entries. */
  statusField: "status" | "participantStatus";
  /** Codes name a successor when terminated, and a suspension may end. */
  successorField?: "successorCode" | "successorBic";
  /** The lists to refresh once approved. */
  refreshes: readonly string[];
}

interface StatusForm {
  status: string;
  effectiveFrom: string;
  until: string;
  successor: string;
  reason: string;
}

function requestBody(target: StatusChangeTarget, form: StatusForm): Record<string, string | null> {
  const body: Record<string, string | null> = {
    [target.statusField]: form.status,
    effectiveFrom: form.effectiveFrom || null,
    reason: form.reason.trim(),
  };
  if (target.successorField) {
    body.until = form.status === "suspended" ? form.until || null : null;
    body[target.successorField] = form.status === "terminated" ? form.successor.trim() || null : null;
  }
  return body;
}

function StatusChangeFields({ target, form, set, reasonError }: {
  target: StatusChangeTarget;
  form: StatusForm;
  set: (key: keyof StatusForm, value: string) => void;
  reasonError: string | null;
}) {
  const options = target.statuses.filter((status) => status !== target.current)
    .map((status) => ({ value: status, label: titleCase(status) }));
  return (
    <>
      <SelectField
        label="New status"
        options={options}
        value={form.status}
        onChange={(e) => set("status", e.target.value)}
      />
      <TextField
        label="Effective date"
        type="date"
        value={form.effectiveFrom}
        hint={EFFECTIVE_DATE_HINT}
        onChange={(e) => set("effectiveFrom", e.target.value)}
      />
      {target.successorField && form.status === "suspended" && (
        <TextField
          label="Suspended until"
          type="date"
          value={form.until}
          hint="Optional: the day the suspension ends"
          onChange={(e) => set("until", e.target.value)}
        />
      )}
      {target.successorField && form.status === "terminated" && (
        <TextField
          label={target.successorField === "successorBic" ? "Successor BIC" : "Successor code"}
          value={form.successor}
          autoComplete="off"
          className="font-mono uppercase"
          hint="Optional: the code that takes over"
          onChange={(e) => set("successor", e.target.value.toUpperCase())}
        />
      )}
      <TextAreaField
        label="Reason"
        rows={3}
        required
        maxLength={MAX_REASON_LENGTH}
        value={form.reason}
        error={reasonError}
        onChange={(e) => set("reason", e.target.value)}
      />
    </>
  );
}

/** The status change dialog: a request for a second person, effective at once or from a date. */
export function StatusChangeDialog(
  { target, open, onClose }: { target: StatusChangeTarget; open: boolean; onClose: () => void },
) {
  const first = target.statuses.find((status) => status !== target.current) ?? "";
  const empty: StatusForm = { status: first, effectiveFrom: "", until: "", successor: "", reason: "" };
  const [form, setForm] = useState<StatusForm>(empty);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const close = () => {
    setForm(empty);
    setReasonError(null);
    onClose();
  };
  const change = useApprovableMutation({
    mutationFn: (body: Record<string, string | null>) =>
      apiJson<unknown | PendingApproval>("PATCH", target.path, body),
    errorTitle: "Failed to request the status change",
    onDone: close,
    refresh: (queryClient) => invalidateAll(queryClient, target.refreshes),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.reason.trim() === "") return setReasonError("Required");
    if (!change.isPending) change.mutate(requestBody(target, form));
  };
  const set = (key: keyof StatusForm, value: string) => {
    setForm((previous) => ({ ...previous, [key]: value }));
    if (key === "reason") setReasonError(null);
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={`Change the status of ${target.subject}`}
      description={`Now ${target.current}. The change takes effect at its date once a second person with the approver role approves.`}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <StatusChangeFields target={target} form={form} set={set} reasonError={reasonError} />
        <DialogActions onCancel={close} isPending={change.isPending} label="Submit for approval" />
      </form>
    </Dialog>
  );
}

/** A row's "History" and "Change status" buttons, the latter for those who may request it. */
export function LifecycleActions({ target, historyPath, label }: {
  target: StatusChangeTarget;
  historyPath: string;
  /** The record's name for screen readers: "CBR00000142". */
  label: string;
}) {
  const [historyOpen, setHistoryOpen] = useState(false);
  const [statusOpen, setStatusOpen] = useState(false);
  return (
    <div className="flex justify-end gap-2">
      <Button
        size="sm"
        variant="outline"
        changes={false}
        aria-label={`History of ${label}`}
        onClick={() => setHistoryOpen(true)}
      >
        History
      </Button>
      {target.current !== "terminated" && (
        <IfAllowed method="PATCH" path={target.rulePath}>
          <Button
            size="sm"
            variant="outline"
            changes
            aria-label={`Change the status of ${label}`}
            onClick={() => setStatusOpen(true)}
          >
            Change status
          </Button>
        </IfAllowed>
      )}
      <HistoryDialog
        open={historyOpen}
        onClose={() => setHistoryOpen(false)}
        title={`History of ${label}`}
        path={historyPath}
      />
      {statusOpen && (
        <StatusChangeDialog
          target={target}
          open={statusOpen}
          onClose={() => setStatusOpen(false)}
        />
      )}
    </div>
  );
}
