/** Spec 2.1: each signed-in route loads its screen on demand, so the initial bundle stays small. */
import { lazy } from "react";

export const ROUTES = [
  { path: "/", Screen: lazy(() => import("./features/dashboard/dashboard_page.tsx")) },
  { path: "/institutions", Screen: lazy(() => import("./features/institutions/institutions_page.tsx")) },
  { path: "/institutions/:id", Screen: lazy(() => import("./features/institutions/institution_page.tsx")) },
  { path: "/routing-codes", Screen: lazy(() => import("./features/routing_codes/routing_codes_page.tsx")) },
  { path: "/swift-bic", Screen: lazy(() => import("./features/swift_bic/swift_bic_page.tsx")) },
  { path: "/iban-validation", Screen: lazy(() => import("./features/iban/iban_validation_page.tsx")) },
  { path: "/national-routing", Screen: lazy(() => import("./features/national_routing/national_routing_page.tsx")) },
  { path: "/directory", Screen: lazy(() => import("./features/directory/directory_page.tsx")) },
  { path: "/directory/import", Screen: lazy(() => import("./features/registry_import/registry_import_page.tsx")) },
  {
    path: "/central-bank-connections",
    Screen: lazy(() => import("./features/central_bank_connections/connections_page.tsx")),
  },
  { path: "/balance-sweep", Screen: lazy(() => import("./features/balance_sweeps/balance_sweep_page.tsx")) },
  { path: "/fintech-operations", Screen: lazy(() => import("./features/fintech/fintech_operations_page.tsx")) },
  { path: "/card-management", Screen: lazy(() => import("./features/cards/card_management_page.tsx")) },
  {
    path: "/partnership-expediter",
    Screen: lazy(() => import("./features/partnership_expediter/partnership_expediter_page.tsx")),
  },
  { path: "/api-management", Screen: lazy(() => import("./features/api_management/api_management_page.tsx")) },
  { path: "/reports", Screen: lazy(() => import("./features/reports/reports_page.tsx")) },
  { path: "/settings", Screen: lazy(() => import("./features/settings/settings_page.tsx")) },
  { path: "/approvals", Screen: lazy(() => import("./features/approvals/approvals_page.tsx")) },
  { path: "/users", Screen: lazy(() => import("./features/users/users_page.tsx")) },
  { path: "/audit-trail", Screen: lazy(() => import("./features/audit_trail/audit_trail_page.tsx")) },
] as const;

export const LandingPage = lazy(() => import("./features/landing/landing_page.tsx"));
export const NotFoundPage = lazy(() => import("./features/not_found/not_found_page.tsx"));
export const NotAllowedPage = lazy(() => import("./features/not_allowed/not_allowed_page.tsx"));
