/** "Assign New Code": institution, 3-letter prefix with a live preview of the next code, branch, description. */
import { InstitutionSelectField } from "../../components/institution_select.tsx";
import { type FormEvent, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextAreaField, TextField } from "../../components/ui/form.tsx";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import { useToast } from "../../lib/toast.ts";
import { PREFIX_LENGTH, useAssignRoutingCode, usePrefixPreview } from "./api.ts";

const MAX_BRANCH_CODE_LENGTH = 10;
const MAX_DESCRIPTION_LENGTH = 1000;

interface AssignInput {
  institutionId: string;
  prefix: string;
  branchCode: string;
  description: string;
}

const EMPTY: AssignInput = { institutionId: "", prefix: "", branchCode: "", description: "" };

/** Spec 5: the preview is asked for only at exactly three characters and cleared otherwise; a failure is only logged. */

export function AssignCodeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState<AssignInput>(EMPTY);
  const { toast } = useToast();
  const preview = usePrefixPreview(open ? form.prefix : "");

  const close = () => {
    setForm(EMPTY);
    onClose();
  };

  const assign = useAssignRoutingCode((record) => {
    toast({ title: "Routing code assigned", description: `${record.code} is now assigned` });
    close();
  });

  const set = (field: keyof AssignInput) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));
  const canSubmit = form.institutionId !== "" && form.prefix.length === PREFIX_LENGTH && !assign.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmit) assign.mutate(form);
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Assign New Code"
      description="The next routing code for the prefix is assigned, with MOD 97-10 check digits."
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <InstitutionSelectField open={open} value={form.institutionId} onChange={set("institutionId")} />
        <div>
          <TextField
            label="Prefix"
            required
            maxLength={PREFIX_LENGTH}
            autoComplete="off"
            value={form.prefix}
            onChange={(event) => set("prefix")(asciiUpperCase(event.target.value))}
            placeholder="ABC"
            hint="Three letters"
            className="font-mono uppercase"
          />
          <p aria-live="polite" data-testid="routing-code-preview" className="mt-2 text-sm text-slate-700">
            {preview && (
              <>
                Next code: <span className="font-mono font-semibold text-slate-900">{preview}</span>
              </>
            )}
          </p>
        </div>
        <TextField
          label="Branch Code"
          maxLength={MAX_BRANCH_CODE_LENGTH}
          autoComplete="off"
          value={form.branchCode}
          onChange={(event) => set("branchCode")(event.target.value)}
        />
        <TextAreaField
          label="Description"
          rows={3}
          maxLength={MAX_DESCRIPTION_LENGTH}
          value={form.description}
          onChange={(event) => set("description")(event.target.value)}
        />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={close}>Cancel</Button>
          <Button type="submit" disabled={!canSubmit}>
            {assign.isPending ? "Assigning…" : "Assign Code"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
