import { lazy, type ReactNode, Suspense, useState } from "react";
import type { AuthUser } from "../../lib/auth.ts";
import { useAuthGuard } from "../../lib/auth_guard.ts";
import { ChangesPausedContext, useChangesPausedState } from "../../lib/changes_paused.ts";
import { Header } from "./header.tsx";
import { DualControlBanner } from "./dual_control_banner.tsx";
import { ChangesPausedBanner, StaleReadBanner } from "./replication_status.tsx";
import { Sidebar } from "./sidebar.tsx";

const MobileSidebar = lazy(() => import("./mobile_sidebar.tsx"));

export function Shell(
  { user, children, dialogs }: { user: AuthUser | undefined; children: ReactNode; dialogs?: ReactNode },
) {
  useAuthGuard();
  const paused = useChangesPausedState();
  const [menuOpen, setMenuOpen] = useState(false);
  // Mounted from the first open on, so closing and reopening need no second load.
  const [menuWanted, setMenuWanted] = useState(false);
  const openMenu = () => {
    setMenuWanted(true);
    setMenuOpen(true);
  };
  return (
    <ChangesPausedContext.Provider value={paused}>
      <div className="flex h-dvh bg-slate-50">
        <a
          href="#main-content"
          className="sr-only z-50 rounded-md bg-white px-4 py-2 text-sm font-medium text-blue-900 shadow focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:outline-none focus:ring-2 focus:ring-blue-700"
        >
          Skip to content
        </a>
        <Sidebar user={user} />
        {menuWanted && (
          <Suspense fallback={null}>
            <MobileSidebar user={user} open={menuOpen} onClose={() => setMenuOpen(false)} />
          </Suspense>
        )}
        <div className="flex min-w-0 flex-1 flex-col">
          <Header user={user} onOpenMenu={openMenu} />
          <ChangesPausedBanner />
          <StaleReadBanner />
          <DualControlBanner />
          <main
            id="main-content"
            tabIndex={-1}
            className="min-w-0 flex-1 overflow-y-auto p-4 focus:outline-none sm:p-6"
          >
            {children}
          </main>
        </div>
        {dialogs}
      </div>
    </ChangesPausedContext.Provider>
  );
}
