import {
  ArrowLeftRight,
  BookOpen,
  Cable,
  ChartColumn,
  ClipboardCheck,
  CreditCard,
  FileSignature,
  Globe,
  Handshake,
  Hash,
  History,
  KeyRound,
  Landmark,
  LayoutDashboard,
  type LucideIcon,
  Settings,
  ShieldCheck,
  Users,
  Wallet,
} from "lucide-react";
import { NavLink } from "react-router";
import { usePendingApprovalCount } from "../../lib/pending_approvals.ts";
import type { AuthUser } from "../../lib/auth.ts";
import { useSystemSettings } from "../../lib/system_settings.ts";
import { NAV_GROUPS, type NavItem, reachableNavItems } from "./nav_items.ts";

const ICONS: Record<NavItem["path"], LucideIcon> = {
  "/": LayoutDashboard,
  "/institutions": Landmark,
  "/routing-codes": Hash,
  "/swift-bic": Globe,
  "/iban-validation": ShieldCheck,
  "/national-routing": BookOpen,
  "/directory": FileSignature,
  "/central-bank-connections": Cable,
  "/balance-sweep": ArrowLeftRight,
  "/fintech-operations": Wallet,
  "/card-management": CreditCard,
  "/partnership-expediter": Handshake,
  "/api-management": KeyRound,
  "/reports": ChartColumn,
  "/settings": Settings,
  "/approvals": ClipboardCheck,
  "/users": Users,
  "/audit-trail": History,
};

function NavEntry({ item, pending, onNavigate }: { item: NavItem; pending: number; onNavigate?: () => void }) {
  const Icon = ICONS[item.path];
  return (
    <li>
      <NavLink
        to={item.path}
        end={item.path === "/"}
        onClick={onNavigate}
        className={({ isActive }) =>
          `flex items-center gap-3 rounded-md px-3 py-1.5 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 ${
            isActive ? "bg-blue-50 text-blue-900" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
          }`}
      >
        <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
        <span className="flex-1">{item.label}</span>
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
  );
}

/**
 * The grouped navigation, the same in the sidebar and the slide-over. It scrolls on its own when the
 * window is too short for every entry; the signed-in user is the header's account menu.
 */
export function SidebarContent({ user, onNavigate }: { user: AuthUser | undefined; onNavigate?: () => void }) {
  const pending = usePendingApprovalCount();
  const roles = user?.roles ?? [];
  const items = reachableNavItems(roles);
  return (
    <nav aria-label="Main" className="min-h-0 flex-1 overflow-y-auto px-3 py-4">
      <ul className="space-y-0.5">
        {items.filter((item) => item.group === null).map((item) => (
          <NavEntry key={item.path} item={item} pending={pending} onNavigate={onNavigate} />
        ))}
      </ul>
      {NAV_GROUPS.map((group) => (
        <div key={group} className="mt-3">
          <h2 id={`nav-group-${group}`} className="px-3 text-xs font-semibold uppercase tracking-wide text-slate-600">
            {group}
          </h2>
          <ul aria-labelledby={`nav-group-${group}`} className="mt-1 space-y-0.5">
            {items.filter((item) => item.group === group).map((item) => (
              <NavEntry key={item.path} item={item} pending={pending} onNavigate={onNavigate} />
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

export function Brand() {
  // The System Settings' General tab once read; the product's own name until then.
  const settings = useSystemSettings().data;
  return (
    <>
      <p className="text-base font-semibold text-slate-900" data-testid="system-name">
        {settings?.systemName ?? "Central Bank Registry"}
      </p>
      <p className="truncate text-xs text-slate-600" data-testid="system-description" title={settings?.systemDescription}>
        {settings?.systemDescription || "Payment Infrastructure Console"}
      </p>
    </>
  );
}

/** The fixed sidebar from 1024 px up; narrower windows use the slide-over below instead. */
export function Sidebar({ user }: { user: AuthUser | undefined }) {
  return (
    <aside className="hidden min-h-0 w-64 shrink-0 flex-col border-r border-slate-200 bg-white lg:flex">
      <div className="border-b border-slate-200 px-5 py-4">
        <Brand />
      </div>
      <SidebarContent user={user} />
    </aside>
  );
}
