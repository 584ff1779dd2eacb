/**
 * The 14 signed-in routes of spec 2.1 in sidebar order, then the staff screens of issue 20; `api`
 * names the route a screen cannot work without, so the sidebar shows it only to roles that may call it.
 */
export const NAV_ITEMS: readonly { path: string; label: string; api?: readonly [string, string] }[] = [
  { path: "/", label: "Dashboard" },
  { path: "/institutions", label: "Financial Institutions" },
  { path: "/routing-codes", label: "Routing Codes" },
  { path: "/swift-bic", label: "SWIFT/BIC Management" },
  { path: "/iban-validation", label: "IBAN Validation" },
  { path: "/national-routing", label: "National Routing Registry" },
  { path: "/central-bank-connections", label: "Central Bank Connections" },
  { path: "/balance-sweep", label: "Balance Sweep Management" },
  { path: "/fintech-operations", label: "Fintech Operations" },
  { path: "/card-management", label: "Card Management" },
  { path: "/partnership-expediter", label: "Partnership Expediter" },
  { path: "/api-management", label: "API Management" },
  { path: "/reports", label: "Reports & Analytics" },
  { path: "/settings", label: "System Settings" },
  { path: "/approvals", label: "Approvals" },
  { path: "/users", label: "Users", api: ["GET", "/api/users"] },
  { path: "/audit-trail", label: "Audit Trail", api: ["GET", "/api/audit-trail"] },
];
