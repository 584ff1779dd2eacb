/** App-wide UI state that more than one screen drives. */
import { atom } from "jotai";
import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";

/** The New Institution dialog opens from the header's New menu, the dashboard and the empty registry. */
export const newInstitutionDialogOpenAtom = atom(false);

/** The creation dialogs a screen opens when the header's New menu sends the user there. */
export type CreateRequest = "connection" | "manual-sweep" | "account";

/**
 * Opens the screen's dialog for `kind` when the New menu navigated here asking for it (in the
 * history entry's state); the request is then cleared, so Back and a reload do not open it again.
 */
export function useCreateRequest(kind: CreateRequest, open: () => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const asked = (location.state as { create?: CreateRequest } | null)?.create === kind;
  useEffect(() => {
    if (!asked) return;
    open();
    navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true, state: null });
  }, [asked, location.key]);
}
