import { useInstitutionOptions } from "../features/institutions/api.ts";
import { SelectField } from "./ui/form.tsx";

/** The institution picker of the dialogs that attach a code to an institution. */
export function InstitutionSelectField({ open, value, onChange }: {
  open: boolean;
  value: string;
  onChange: (institutionId: string) => void;
}) {
  const institutions = useInstitutionOptions(open);
  return (
    <SelectField
      label="Institution"
      required
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder={institutions.isLoading ? "Loading institutions…" : "Select an institution"}
      options={(institutions.data ?? []).map((institution) => ({ value: institution.id, label: institution.name }))}
      error={institutions.isError ? "Could not load institutions" : null}
    />
  );
}
