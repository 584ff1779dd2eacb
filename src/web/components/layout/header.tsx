import { Menu } from "lucide-react";
import { useLocation } from "react-router";
import type { AuthUser } from "../../lib/auth.ts";
import { Button } from "../ui/button.tsx";
import { AccountMenu } from "./account_menu.tsx";
import { ClockWarningBadge, NodeBadge } from "./replication_status.tsx";
import { NewMenu } from "./new_menu.tsx";
import { NotificationBell } from "./notification_bell.tsx";
import { screenTitle } from "./nav_items.ts";
import { SearchButton } from "../../features/search/search_button.tsx";

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
        </div>
      </div>
      <div className="flex shrink-0 items-center gap-2 sm:gap-3">
        <SearchButton />
        <NotificationBell />
        <NewMenu user={user} />
        <AccountMenu user={user} />
      </div>
    </header>
  );
}
