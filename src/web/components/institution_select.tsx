import { useQuery } from "@tanstack/react-query";
import { SelectField } from "./ui/form.tsx";

interface InstitutionOption {
  id: string;
  name: string;
}

/** The API's page-size limit: the select offers every institution up to it. */
const INSTITUTION_OPTIONS_KEY = "/api/institutions?limit=500";

/** The institution picker of the dialogs that attach a code to an institution. */
export function InstitutionSelectField({ open, value, onChange }: {
  open: boolean;
  value: string;
  onChange: (institutionId: string) => void;
}) {
  const institutions = useQuery<InstitutionOption[]>({
    queryKey: [INSTITUTION_OPTIONS_KEY],
    enabled: open,
    // Institutions registered elsewhere since the last opening must be offered too.
    refetchOnMount: "always",
    staleTime: 0,
  });
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
