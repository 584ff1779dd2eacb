/**
 * The Reports screen's compliance schedule. Each filing's state comes from the server, computed from
 * the generated reports: "Complete (generated <date> by <name>)" only when a report of its type was
 * generated since the filing opened, else "Due <date>" or "Overdue". Administrators add filings,
 * change due dates and remove filings here.
 */
import { type FormEvent, useState } from "react";
import { type FilingState, MAX_FILING_NAME_LENGTH } from "../../../domain/compliance_schedule.ts";
import { REPORT_TYPE_LABELS, REPORT_TYPES } from "../../../domain/report.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { Badge, type BadgeVariant } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TitledCard } from "../../components/ui/card.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { Skeleton } from "../../components/ui/spinner.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { serverFieldErrors } from "../../lib/form_input.ts";
import {
  type ComplianceFiling,
  useAddFiling,
  useChangeDueDate,
  useComplianceSchedule,
  useRemoveFiling,
} from "./api.ts";
import { QueryFailed } from "../../components/ui/load_failed.tsx";

/** The server decides filings by UTC days, so a new filing opens on today's UTC date. */
const utcToday = () => new Date().toISOString().slice(0, 10);

const STATE_STYLES: Record<FilingState, { variant: BadgeVariant; className: string }> = {
  complete: { variant: "default", className: "bg-green-800 text-white" },
  overdue: { variant: "destructive", className: "" },
  due: { variant: "secondary", className: "bg-amber-100 text-amber-900" },
};

const TYPE_OPTIONS = REPORT_TYPES.map((type) => ({ value: type, label: REPORT_TYPE_LABELS[type] }));

function DueDateEditor({ filing, onDone }: { filing: ComplianceFiling; onDone: () => void }) {
  const [dueDate, setDueDate] = useState(filing.dueDate);
  const change = useChangeDueDate(onDone);
  return (
    <form
      noValidate
      className="mt-2 flex items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        change.mutate({ id: filing.id, dueDate });
      }}
    >
      <TextField label={`New due date of ${filing.name}`} type="date" value={dueDate} onChange={(e) => setDueDate(e.target.value)} />
      <Button type="submit" size="sm" disabled={change.isPending}>Save</Button>
      <Button size="sm" variant="ghost" onClick={onDone}>Keep</Button>
    </form>
  );
}

function FilingItem({ filing }: { filing: ComplianceFiling }) {
  const [editing, setEditing] = useState(false);
  const remove = useRemoveFiling();
  const style = STATE_STYLES[filing.state];
  return (
    <li className="rounded-md border border-slate-200 p-3" data-testid="compliance-filing">
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm font-medium text-slate-900">{filing.name}</p>
          <p className="text-xs text-slate-600">
            {REPORT_TYPE_LABELS[filing.reportType]}, from {filing.opensOn}, due {filing.dueDate}
          </p>
        </div>
        <Badge variant={style.variant} className={style.className}>{filing.label}</Badge>
      </div>
      <IfAllowed method="PATCH" path="/api/reports/compliance-schedule/:id">
        {editing ? <DueDateEditor filing={filing} onDone={() => setEditing(false)} /> : (
          <div className="mt-2 flex gap-2">
            <Button size="sm" variant="outline" aria-label={`Change due date of ${filing.name}`} onClick={() => setEditing(true)}>
              Change Due Date
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Remove ${filing.name}`}
              disabled={remove.isPending}
              onClick={() => remove.mutate(filing.id)}
            >
              Remove
            </Button>
          </div>
        )}
      </IfAllowed>
    </li>
  );
}

function AddFiling() {
  const empty = { name: "", reportType: "", opensOn: utcToday(), dueDate: "" };
  const [form, setForm] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useAddFiling(() => {
    setForm(empty);
    setErrors({});
  }, (error) => setErrors(serverFieldErrors(error)));
  const bind = (field: keyof typeof empty) => ({
    value: form[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(form as Parameters<typeof add.mutate>[0]);
  };
  return (
    <form noValidate onSubmit={submit} aria-label="Add filing" className="space-y-3 border-t border-slate-200 pt-4">
      <TextField label="Filing Name" required maxLength={MAX_FILING_NAME_LENGTH} {...bind("name")} />
      <SelectField label="Fulfilled By" placeholder="Select report type" options={TYPE_OPTIONS} {...bind("reportType")} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Opens On" type="date" {...bind("opensOn")} />
        <TextField label="Due Date" type="date" required {...bind("dueDate")} />
      </div>
      <Button type="submit" disabled={add.isPending}>Add Filing</Button>
    </form>
  );
}

export function ComplianceSchedule() {
  const schedule = useComplianceSchedule();
  const filings = schedule.data ?? [];
  return (
    <TitledCard
      title="Compliance Schedule"
      description="A filing is complete once a report of its type has been generated since it opened."
      contentClassName="space-y-4"
    >
      {schedule.isLoading && <Skeleton className="h-16 w-full" />}
      <QueryFailed query={schedule} message="Failed to load the compliance schedule." />
      {schedule.data && filings.length === 0 && (
        <EmptyState title="No filings scheduled" text="Administrators schedule filings and their due dates here." />
      )}
      {filings.length > 0 && (
        <ul className="space-y-3" aria-label="Scheduled filings">
          {filings.map((filing) => <FilingItem key={filing.id} filing={filing} />)}
        </ul>
      )}
      <IfAllowed method="POST" path="/api/reports/compliance-schedule">
        <AddFiling />
      </IfAllowed>
    </TitledCard>
  );
}
