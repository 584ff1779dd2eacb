import { NavLink } from "react-router";
import { mayCall, ROLE_LABELS, ruleFor } from "../../../domain/access.ts";
import { usePendingApprovalCount } from "../../lib/approval.ts";
import { type AuthUser, userLabel } from "../../lib/auth.ts";
import { ChangePasswordButton } from "./change_password.tsx";
import { NAV_ITEMS } from "./nav_items.ts";

export function Sidebar({ user }: { user: AuthUser | undefined }) {
  const pending = usePendingApprovalCount();
  const roles = user?.roles ?? [];
  const items = NAV_ITEMS.filter((item) => {
    if (!item.api) return true;
    const rule = ruleFor(item.api[0], item.api[1]);
    return rule !== undefined && mayCall(rule, roles);
  });
  return (
    <aside className="flex w-64 shrink-0 flex-col border-r border-slate-200 bg-white">
      <div className="border-b border-slate-200 px-5 py-4">
        <p className="text-base font-semibold text-slate-900">Central Bank Registry</p>
        <p className="text-xs text-slate-600">Payment Infrastructure Console</p>
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="space-y-1">
          {items.map((item) => (
            <li key={item.path}>
              <NavLink
                to={item.path}
                end={item.path === "/"}
                className={({ isActive }) =>
                  `flex items-center justify-between rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 ${
                    isActive ? "bg-blue-50 text-blue-900" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                  }`}
              >
                {item.label}
                {item.path === "/approvals" && pending > 0 && (
                  <span
                    className="ml-2 rounded-full bg-amber-700 px-2 py-0.5 text-xs font-semibold text-white"
                    data-testid="approvals-badge"
                    aria-label={`${pending} pending`}
                  >
                    {pending}
                  </span>
                )}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="border-t border-slate-200 p-4">
        <p className="truncate text-sm font-medium text-slate-900" data-testid="user-label">{userLabel(user)}</p>
        <p className="text-xs text-slate-600" data-testid="role-label">Central Bank Admin</p>
        <p className="text-xs text-slate-600" data-testid="roles-label">
          {roles.map((role) => ROLE_LABELS[role]).join(", ")}
        </p>
        <ChangePasswordButton />
        {/* A POST from this origin: a link elsewhere cannot sign the user out. */}
        <form method="post" action="/api/logout" className="mt-2">
          <button
            type="submit"
            className="inline-flex w-full items-center justify-center rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
          >
            Sign Out
          </button>
        </form>
      </div>
    </aside>
  );
}
