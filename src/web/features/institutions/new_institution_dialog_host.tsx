/**
 * Mounts the New Institution dialog app-wide. The dialog's code (form, validation library) loads
 * only when it is first opened, so it stays out of the initial bundle; once loaded it stays
 * mounted so closing animates and reopening is instant.
 */
import { useAtomValue } from "jotai";
import { lazy, Suspense, useState } from "react";
import { newInstitutionDialogOpenAtom } from "../../lib/ui_state.ts";

const NewInstitutionDialog = lazy(() => import("./new_institution_dialog.tsx"));

export function NewInstitutionDialogHost() {
  const open = useAtomValue(newInstitutionDialogOpenAtom);
  const [wanted, setWanted] = useState(false);
  if (open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <NewInstitutionDialog />
    </Suspense>
  );
}
