import { lazy, Suspense, useState } from "react";
import { Button } from "../ui/button.tsx";

const ChangePasswordDialog = lazy(() => import("./change_password.tsx"));

/** The sidebar's "Change password"; the dialog loads on the first click, so the initial bundle stays small. */
export function ChangePasswordButton() {
  const [open, setOpen] = useState(false);
  // Mounted from the first open on, so closing and reopening need no second load.
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="mt-3 w-full"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        Change password
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
