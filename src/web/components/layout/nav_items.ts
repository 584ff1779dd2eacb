/**
 * The 14 signed-in routes of spec 2.1, then the staff screens (approvals, users, audit trail), in
 * sidebar order, each in the sidebar group it is listed under; `api` names the route a screen cannot
 * work without, so the sidebar shows it only to roles that may call it.
 */
import { mayCall, type Role, ruleFor } from "../../../domain/access.ts";

export const NAV_GROUPS = ["Registry", "Payments", "Integrations", "Administration"] as const;
export type NavGroup = typeof NAV_GROUPS[number];

export const NAV_ITEMS = [
  { path: "/", label: "Dashboard", group: null },
  { path: "/institutions", label: "Financial Institutions", group: "Registry" },
  { path: "/routing-codes", label: "Routing Codes", group: "Registry" },
  { path: "/swift-bic", label: "SWIFT/BIC Management", group: "Registry" },
  { path: "/iban-validation", label: "IBAN Validation", group: "Registry" },
  { path: "/national-routing", label: "National Routing Registry", group: "Registry" },
  { path: "/directory", label: "Directory", group: "Registry" },
  { path: "/central-bank-connections", label: "Central Bank Connections", group: "Integrations" },
  { path: "/balance-sweep", label: "Balance Sweep Management", group: "Payments" },
  { path: "/fintech-operations", label: "Fintech Operations", group: "Payments" },
  { path: "/card-management", label: "Card Management", group: "Payments" },
  { path: "/partnership-expediter", label: "Partnership Expediter", group: "Integrations" },
  { path: "/api-management", label: "API Management", group: "Integrations" },
  { path: "/reports", label: "Reports & Analytics", group: "Administration" },
  { path: "/settings", label: "System Settings", group: "Administration" },
  { path: "/approvals", label: "Approvals", group: "Administration" },
  { path: "/users", label: "Users", group: "Administration", api: ["GET", "/api/users"] },
  { path: "/audit-trail", label: "Audit Trail", group: "Administration", api: ["GET", "/api/audit-trail"] },
] as const satisfies readonly {
  path: string;
  label: string;
  group: NavGroup | null;
  api?: readonly [string, string];
}[];

export type NavItem = typeof NAV_ITEMS[number];

/** The screens the roles can use: those whose `api` route the roles may call (src/domain/access.ts). */
export function reachableNavItems(roles: readonly Role[]): NavItem[] {
  return NAV_ITEMS.filter((item: NavItem) => {
    if (!("api" in item)) return true;
    const rule = ruleFor(item.api[0], item.api[1]);
    return rule !== undefined && mayCall(rule, roles);
  });
}

/**
 * The name of the screen at `pathname`, for the header: the nav entry whose path is the
 * pathname or its first segment (so /institutions/:id reads "Financial Institutions").
 */
export function screenTitle(pathname: string): string {
  const first = `/${pathname.split("/")[1] ?? ""}`;
  return NAV_ITEMS.find((item) => item.path === pathname || item.path === first)?.label ?? "Page Not Found";
}
