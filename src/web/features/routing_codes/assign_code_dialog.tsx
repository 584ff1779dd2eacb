/** "Assign New Code": institution, 3-letter prefix with a live preview of the next code, branch, description. */
import { InstitutionSelectField } from "../../components/institution_select.tsx";
import { TextAreaField, TextField } from "../../components/ui/form.tsx";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import { useToast } from "../../lib/toast.ts";
import { PREFIX_LENGTH, useAssignRoutingCode, usePrefixPreview } from "./api.ts";
import { useDialogForm } from "../../lib/form_state.ts";
import { FormDialog } from "../../components/form_dialog.tsx";

const MAX_BRANCH_CODE_LENGTH = 10;
const MAX_DESCRIPTION_LENGTH = 1000;

interface AssignInput {
  institutionId: string;
  prefix: string;
  branchCode: string;
  description: string;
}

const EMPTY: AssignInput = { institutionId: "", prefix: "", branchCode: "", description: "" };

function PrefixField({ prefix, preview, onValue }: { prefix: string; preview: string | null; onValue: (value: string) => void }) {
  return (
    <div>
      <TextField
        label="Prefix"
        required
        maxLength={PREFIX_LENGTH}
        autoComplete="off"
        value={prefix}
        onChange={(event) => onValue(asciiUpperCase(event.target.value))}
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
  );
}

export function AssignCodeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { form, set, bind, close } = useDialogForm<AssignInput>(EMPTY, onClose);
  const { toast } = useToast();
  const preview = usePrefixPreview(open ? form.prefix : "");

  const assign = useAssignRoutingCode((record) => {
    toast({ title: "Routing code assigned", description: `${record.code} is now assigned` });
    close();
  });

  const canSubmit = form.institutionId !== "" && form.prefix.length === PREFIX_LENGTH && !assign.isPending;
  const submit = () => assign.mutate(form);

  return (
    <FormDialog
      open={open}
      onClose={close}
      title="Assign New Code"
      description="The next routing code for the prefix is assigned, with MOD 97-10 check digits."
      onSubmit={submit}
      submitLabel="Assign Code"
      pendingLabel="Assigning…"
      isPending={assign.isPending}
      canSubmit={canSubmit}
    >
      <InstitutionSelectField open={open} value={form.institutionId} onChange={set("institutionId")} />
      <PrefixField prefix={form.prefix} preview={preview} onValue={set("prefix")} />
      <TextField
        label="Branch Code"
        maxLength={MAX_BRANCH_CODE_LENGTH}
        autoComplete="off"
        {...bind("branchCode")}
      />
      <TextAreaField
        label="Description"
        rows={3}
        maxLength={MAX_DESCRIPTION_LENGTH}
        {...bind("description")}
      />
    </FormDialog>
  );
}
