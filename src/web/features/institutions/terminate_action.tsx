/**
 * "Terminate" on the institution page: the institution and its own routing codes and BICs end on a
 * date, optionally succeeded by another institution and each code by another code of its kind; their
 * deletion is announced at once. A request for a second person, like every status change
 * (PATCH /api/institutions/:id/status).
 */
import { type FormEvent, useState } from "react";
import { MAX_STATUS_CHANGE_REASON_LENGTH } from "../../../domain/institution.ts";
import { DialogActions } from "../../components/dialog_actions.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { useMayCall } from "../../lib/auth.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { useChangeStatus, useInstitutionOptions, usePendingStatusChanges } from "./api.ts";
import type { Institution } from "./types.ts";

const EMPTY = { effectiveFrom: "", successorId: "", reason: "" };

/** The institution's own codes still in use, which end with it. */
export interface EndingCodes {
  routingCodes: readonly string[];
  bics: readonly string[];
}

type CodeKind = keyof EndingCodes;
type Successors = Record<CodeKind, Record<string, string>>;
const NO_SUCCESSORS: Successors = { routingCodes: {}, bics: {} };
const KIND_TITLES: Record<CodeKind, string> = { routingCodes: "Routing code successors", bics: "BIC successors" };

/** The successors filled in, by kind; a kind with none is left out, and no kind at all is none. */
function namedSuccessors(successors: Successors) {
  const named: Partial<Successors> = {};
  for (const kind of Object.keys(successors) as CodeKind[]) {
    const filled = Object.entries(successors[kind]).filter(([, next]) => next.trim() !== "");
    if (filled.length > 0) named[kind] = Object.fromEntries(filled.map(([code, next]) => [code, next.trim()]));
  }
  return Object.keys(named).length === 0 ? undefined : named;
}

/** One kind's codes, each with an optional successor; the server's error for the kind shows above them. */
function CodeSuccessorFields({ kind, codes, successors, error, onChange }: {
  kind: CodeKind;
  codes: readonly string[];
  successors: Record<string, string>;
  error: string | undefined;
  onChange: (code: string, next: string) => void;
}) {
  if (codes.length === 0) return null;
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-900">{KIND_TITLES[kind]}</legend>
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
      {codes.map((code) => (
        <TextField
          key={code}
          label={`Successor of ${code}`}
          hint="Blank: none"
          value={successors[code] ?? ""}
          onChange={(event) => onChange(code, event.target.value)}
        />
      ))}
    </fieldset>
  );
}

export function TerminateAction({ institution, codes }: { institution: Institution; codes: EndingCodes }) {
  const mayChangeStatus = useMayCall("PATCH", "/api/institutions/:id/status");
  const pending = usePendingStatusChanges().has(institution.id);
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [successors, setSuccessors] = useState<Successors>(NO_SUCCESSORS);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const options = useInstitutionOptions(open);
  const close = () => {
    setOpen(false);
    setForm(EMPTY);
    setSuccessors(NO_SUCCESSORS);
    setErrors({});
  };
  const change = useChangeStatus(institution.id, close, (error) => setErrors(serverFieldErrors(error)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.reason.trim() === "") return setErrors({ reason: "Required" });
    const reason = form.reason.trim();
    change.mutate({
      status: "terminated",
      reason,
      effectiveFrom: form.effectiveFrom || undefined,
      successorId: form.successorId || undefined,
      codeSuccessors: namedSuccessors(successors),
    });
  };
  if (!mayChangeStatus || pending || institution.status === "terminated") return null;
  const heirs = (options.data ?? []).filter((other) => other.id !== institution.id)
    .map((other) => ({ value: other.id, label: other.name }));
  const field = (name: keyof typeof EMPTY) => ({
    value: form[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });
  return (
    <>
      <Button size="sm" variant="outline" changes onClick={() => setOpen(true)} aria-label={`Terminate ${institution.name}`}>
        Terminate
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={`Terminate ${institution.name}?`}
        description="The institution and its routing codes and BICs end on the date given (at once without one) once a second person with the approver role approves; their deletion is announced at once. Termination is final."
      >
        <form onSubmit={submit} noValidate className="space-y-4">
          <TextField label="Effective From" type="date" hint="Blank: at once" {...field("effectiveFrom")} />
          <SelectField label="Successor" placeholder="No successor" options={heirs} {...field("successorId")} />
          {(["routingCodes", "bics"] as const).map((kind) => (
            <CodeSuccessorFields
              key={kind}
              kind={kind}
              codes={codes[kind]}
              successors={successors[kind]}
              error={errors[`codeSuccessors.${kind}`]}
              onChange={(code, next) => setSuccessors({ ...successors, [kind]: { ...successors[kind], [code]: next } })}
            />
          ))}
          <TextAreaField label="Reason" rows={3} required maxLength={MAX_STATUS_CHANGE_REASON_LENGTH} {...field("reason")} />
          <DialogActions onCancel={close} variant="destructive" isPending={change.isPending} label="Submit for approval" />
        </form>
      </Dialog>
    </>
  );
}
