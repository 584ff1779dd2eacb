import { useSetAtom } from "jotai";
import { newInstitutionDialogOpenAtom } from "../../lib/ui_state.ts";
import { Button } from "../ui/button.tsx";
import { ReplicationBadge } from "./replication_status.tsx";
import { Tooltip } from "../ui/tooltip.tsx";

export function Header() {
  const openNewInstitution = useSetAtom(newInstitutionDialogOpenAtom);
  return (
    <header className="flex h-16 items-center justify-between border-b border-slate-200 bg-white px-6">
      <p className="text-lg font-semibold text-slate-900">Dashboard</p>
      <div className="flex items-center gap-3">
        <ReplicationBadge />
        <Tooltip content="No new notifications">
          {(tooltipProps) => (
            <Button variant="ghost" size="icon" aria-label="Notifications" {...tooltipProps}>
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
                <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
                <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
              </svg>
            </Button>
          )}
        </Tooltip>
        <Button onClick={() => openNewInstitution(true)}>New Institution</Button>
      </div>
    </header>
  );
}
