/** The number of branches, as registration and the edit of details both ask for it. */
import { MIN_NUMBER_OF_BRANCHES } from "../../../domain/institution.ts";
import { TextField } from "../../components/ui/form.tsx";

export function BranchesField(
  props: { value: string; onChange: (event: { target: { value: string } }) => void; error?: string },
) {
  return <TextField label="Number of Branches" type="number" min={MIN_NUMBER_OF_BRANCHES} step={1} inputMode="numeric" {...props} />;
}
