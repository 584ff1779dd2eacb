/** The 14 signed-in routes of spec 2.1, in sidebar order. */
export const NAV_ITEMS = [
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
] as const;
