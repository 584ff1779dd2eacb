import { Menu } from "lucide-react";
import { lazy, type ReactNode, Suspense } from "react";
import { useLocation } from "react-router";
import type { AuthUser } from "../../lib/auth.ts";
import { Button } from "../ui/button.tsx";
import { ClockWarningBadge, NodeBadge } from "./replication_status.tsx";
import { screenTitle } from "./nav_items.ts";
import { SystemLocale } from "./system_locale.tsx";
import { SearchButton } from "../../features/search/search_button.tsx";

// The header's menus load just after the first paint, as the dialogs do on first open: the menu
// library (and, through its one entry module, every component of it that a screen uses) stays out of
// the initial download.
const NotificationBell = lazy(() => import("./notification_bell.tsx").then((m) => ({ default: m.NotificationBell })));
const NewMenu = lazy(() => import("./new_menu.tsx").then((m) => ({ default: m.NewMenu })));
const AccountMenu = lazy(() => import("./account_menu.tsx").then((m) => ({ default: m.AccountMenu })));

/** Holds a header button's place while its menu loads, so nothing moves when it appears. */
function Deferred({ children }: { children: ReactNode }) {
  return <Suspense fallback={<span aria-hidden="true" className="inline-block h-9 w-9" />}>{children}</Suspense>;
}

export function Header({ user, onOpenMenu }: { user: AuthUser | undefined; onOpenMenu: () => void }) {
  const { pathname } = useLocation();
  return (
    <header className="flex h-16 shrink-0 items-center justify-between gap-2 border-b border-slate-200 bg-white px-4 sm:px-6">
      <div className="flex min-w-0 items-center gap-2">
        <Button variant="ghost" size="icon" className="shrink-0 lg:hidden" aria-label="Open menu" onClick={onOpenMenu}>
          <Menu aria-hidden="true" className="h-5 w-5" />
        </Button>
        {/* The screen's name; status badges about the node sit beside it, in this row. */}
        <p className="truncate text-lg font-semibold text-slate-900" data-testid="screen-title">{screenTitle(pathname)}</p>
        <div className="flex shrink-0 items-center gap-2">
          <NodeBadge />
          <ClockWarningBadge />
          <SystemLocale />
        </div>
      </div>
      <div className="flex shrink-0 items-center gap-2 sm:gap-3">
        <SearchButton />
        <Deferred><NotificationBell /></Deferred>
        <Deferred><NewMenu user={user} /></Deferred>
        <Deferred><AccountMenu user={user} /></Deferred>
      </div>
    </header>
  );
}
