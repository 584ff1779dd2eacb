import { NavLink } from "react-router";
import { type AuthUser, userLabel } from "../../lib/auth.ts";
import { NAV_ITEMS } from "./nav_items.ts";

export function Sidebar({ user }: { user: AuthUser | undefined }) {
  return (
    <aside className="flex w-64 shrink-0 flex-col border-r border-slate-200 bg-white">
      <div className="border-b border-slate-200 px-5 py-4">
        <p className="text-base font-semibold text-slate-900">Central Bank Registry</p>
        <p className="text-xs text-slate-600">Payment Infrastructure Console</p>
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="space-y-1">
          {NAV_ITEMS.map((item) => (
            <li key={item.path}>
              <NavLink
                to={item.path}
                end={item.path === "/"}
                className={({ isActive }) =>
                  `block rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 ${
                    isActive ? "bg-blue-50 text-blue-900" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                  }`}
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="border-t border-slate-200 p-4">
        <p className="truncate text-sm font-medium text-slate-900" data-testid="user-label">{userLabel(user)}</p>
        <p className="text-xs text-slate-600" data-testid="role-label">Central Bank Admin</p>
        {/* A POST from this origin: a link elsewhere cannot sign the user out. */}
        <form method="post" action="/api/logout" className="mt-3">
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
