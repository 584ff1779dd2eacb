import type { ReactNode } from "react";
import type { AuthUser } from "../../lib/auth.ts";
import { useAuthGuard } from "../../lib/auth_guard.ts";
import { Header } from "./header.tsx";
import { ChangesPausedBanner } from "./replication_status.tsx";
import { Sidebar } from "./sidebar.tsx";

export function Shell({ user, children, dialogs }: { user: AuthUser | undefined; children: ReactNode; dialogs?: ReactNode }) {
  useAuthGuard();
  return (
    <div className="flex h-screen bg-slate-50">
      <Sidebar user={user} />
      <div className="flex min-w-0 flex-1 flex-col">
        <Header />
        <ChangesPausedBanner />
        <main className="flex-1 overflow-y-auto p-6">{children}</main>
      </div>
      {dialogs}
    </div>
  );
}
