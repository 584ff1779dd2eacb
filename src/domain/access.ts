/**
 * Staff roles and the role rule of every API route (docs/security.md carries the same table). The
 * server looks each request's route up here (src/server/access.ts) and refuses a route that has no
 * rule, so a new route cannot be reached until someone decides who may call it.
 *
 * @module
 */

export const ROLES = ["administrator", "operator", "approver", "auditor"] as const;
export type Role = typeof ROLES[number];

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  administrator: "Administrator",
  operator: "Operator",
  approver: "Approver",
  auditor: "Auditor",
};

/** The sidebar's name for an administrator: the title the specification gives the console's administrators. */
export const ADMINISTRATOR_TITLE = "Central Bank Admin";

/**
 * The sidebar's role label: "Central Bank Admin" for an administrator, otherwise the roles held
 * ("Operator", "Approver", "Auditor"), joined when several, in the order of ROLES.
 */
export function roleLabel(roles: readonly Role[]): string {
  const held = ROLES.filter((role) => roles.includes(role));
  if (held.length === 0) return "No role";
  return held.map((role) => (role === "administrator" ? ADMINISTRATOR_TITLE : ROLE_LABELS[role])).join(", ");
}

const ROLE_PLURALS: Readonly<Record<Role, string>> = {
  administrator: "administrators",
  operator: "operators",
  approver: "approvers",
  auditor: "auditors",
};

export interface RouteRule {
  /** Who may call the route; "signed-in" is anyone with a session, whatever roles they hold. */
  roles: readonly Role[] | "signed-in";
  /** What the route does, completing "Only operators can …" in the 403 answer. */
  action: string;
  /** Still callable while the user must replace an initial or reset password. */
  beforePasswordChange?: true;
}

/** Reading is open to every role: the auditor reads everything, the others need the data to work. */
const EVERY_ROLE: readonly Role[] = ROLES;

const read = (action: string): RouteRule => ({ roles: EVERY_ROLE, action });
const operate = (action: string): RouteRule => ({ roles: ["operator"], action });
const administer = (action: string): RouteRule => ({ roles: ["administrator"], action });
const oversee = (action: string): RouteRule => ({ roles: ["administrator", "auditor"], action });

/** Keyed by "METHOD /api/path" with the router's own path pattern. */
export const ROUTE_RULES: Readonly<Record<string, RouteRule>> = {
  "GET /api/auth/user": { roles: "signed-in", action: "see who is signed in", beforePasswordChange: true },
  "POST /api/auth/password": {
    roles: "signed-in",
    action: "change their own password",
    beforePasswordChange: true,
  },
  "GET /api/auth/session": {
    roles: "signed-in",
    action: "see when their session ends",
    beforePasswordChange: true,
  },
  "POST /api/auth/session/extend": {
    roles: "signed-in",
    action: "stay signed in",
    beforePasswordChange: true,
  },
  "GET /api/auth/sign-in-settings": read("read the sign-in settings"),
  "PUT /api/auth/sign-in-settings": administer("change sign-in settings"),
  "GET /api/settings": read("read the system settings"),
  "PUT /api/settings/general": administer("change the system settings"),
  "PUT /api/settings/security": administer("change the system settings"),
  "PUT /api/settings/api": administer("change the system settings"),
  "PUT /api/settings/backup": administer("change the system settings"),
  "PUT /api/settings/system": administer("change the system settings"),
  "POST /api/settings/backup/run": administer("take a backup"),
  "GET /api/system/replication": {
    roles: "signed-in",
    action: "see how fresh this node's figures are",
    beforePasswordChange: true,
  },
  "GET /api/system/divergence-reports": oversee("read what a primary restore lost"),
  "GET /api/sessions": { roles: "signed-in", action: "list their sessions" },
  "DELETE /api/sessions/:sid": { roles: "signed-in", action: "end their sessions" },

  "GET /api/users": administer("manage users"),
  "POST /api/users": administer("create users"),
  "PATCH /api/users/:id": administer("change users' roles or disable them"),
  "POST /api/users/:id/reset-password": administer("reset users' passwords"),
  "POST /api/users/:id/confirm-roles": administer("confirm roles granted by one administrator"),
  "GET /api/dual-control": administer("see the state of dual control"),
  "GET /api/users/:id/identities": administer("manage users' provider identities"),
  "POST /api/users/:id/identities": administer("link provider identities to users"),
  "DELETE /api/users/:id/identities": administer("manage users' provider identities"),

  "GET /api/api-keys": administer("manage API keys"),
  "POST /api/api-keys": administer("manage API keys"),
  "DELETE /api/api-keys/:id": administer("manage API keys"),
  "GET /api/webhooks": administer("manage webhooks"),
  "POST /api/webhooks": administer("manage webhooks"),
  "PATCH /api/webhooks/:id": administer("manage webhooks"),
  "DELETE /api/webhooks/:id": administer("manage webhooks"),
  "GET /api/webhooks/:id/deliveries": administer("manage webhooks"),
  "GET /api/webhook-deliveries/:id": administer("manage webhooks"),
  "POST /api/webhook-deliveries/:id/redeliver": administer("redeliver webhook deliveries"),
  "GET /api/api-logs": oversee("read the API request log"),
  "GET /api/api-logs/stats": oversee("read the API request log"),
  "GET /api/api-logs/charts": oversee("read the API request log"),
  "GET /api/openapi.json": read("read the API description"),

  "GET /api/audit-trail": oversee("read the audit trail"),
  "GET /api/audit-trail/facets": oversee("read the audit trail"),
  "GET /api/audit-trail/verification": oversee("verify the audit trail"),

  "GET /api/reports": read("list reports"),
  "GET /api/reports/:id/download": read("download reports"),
  "POST /api/reports": read("generate reports"),
  "GET /api/reports/compliance-schedule": read("read the compliance schedule"),
  "POST /api/reports/compliance-schedule": administer("change the compliance schedule"),
  "PATCH /api/reports/compliance-schedule/:id": administer("change the compliance schedule"),
  "DELETE /api/reports/compliance-schedule/:id": administer("change the compliance schedule"),

  "GET /api/dashboard/stats": read("read the dashboard"),
  "GET /api/dashboard/recent-registrations": read("read the dashboard"),
  "GET /api/dashboard/trends": read("read the dashboard"),
  "GET /api/dashboard/alerts": read("read the dashboard"),
  "GET /api/dashboard/charts": read("read the dashboard"),

  "GET /api/institutions": read("read institutions"),
  "GET /api/institutions/:id": read("read institutions"),
  "GET /api/institutions/:id/overview": read("read institutions"),
  "POST /api/institutions": operate("register institutions"),
  "PATCH /api/institutions/:id/status": operate("request institution status changes"),
  "PATCH /api/institutions/:id": operate("request institution changes"),
  "GET /api/institutions/:id/history": read("read institutions"),
  "GET /api/search": read("search the registry"),
  // Every role searches; each kind of record is then found only by those who may list it (users: administrators).
  "GET /api/search/everywhere": read("search the registry"),

  "GET /api/routing-codes": read("read routing codes"),
  "GET /api/routing-codes/:code": read("read routing codes"),
  "POST /api/routing-codes": operate("register routing codes"),
  "POST /api/routing-codes/generate-preview": operate("generate routing codes"),
  "GET /api/swift-codes": read("read SWIFT codes"),
  "GET /api/swift-codes/:bic": read("read SWIFT codes"),
  "POST /api/swift-codes": operate("register SWIFT codes"),
  "POST /api/iban/validate": read("validate IBANs"),
  "GET /api/iban-configs": read("read IBAN formats"),
  "POST /api/iban-configs": administer("change IBAN formats"),
  "PATCH /api/iban-configs/:countryCode": administer("change IBAN formats"),
  "GET /api/national-routing": read("read the national routing registry"),
  "POST /api/national-routing": operate("register national routing entries"),

  "GET /api/directory/editions": read("read directory editions"),
  "POST /api/directory/editions": operate("prepare directory editions"),
  "GET /api/directory/next": read("preview the next directory edition"),
  "GET /api/directory/editions/:n/manifest.json": read("download directory editions"),
  "GET /api/directory/editions/:n/manifest.json.sig": read("download directory editions"),
  "GET /api/directory/editions/:n/manifest.json.jws": read("download directory editions"),
  "GET /api/directory/editions/:n/full.csv": read("download directory editions"),
  "GET /api/directory/editions/:n/delta.csv": read("download directory editions"),
  "GET /api/directory/editions/:n/full.txt": read("download directory editions"),
  "GET /api/directory/editions/:n/delta.txt": read("download directory editions"),
  "GET /api/directory/public-key.pem": read("download the directory key"),
  "GET /api/directory/public-key.jwk": read("download the directory key"),

  "GET /api/central-bank-connections": read("read central bank connections"),
  "POST /api/central-bank-connections": administer("manage connection credentials"),
  "POST /api/central-bank-connections/:id/test": administer("test central bank connections"),
  "GET /api/establish-loc-connection/config": read("read the partner connection"),
  "POST /api/establish-loc-connection": administer("manage connection credentials"),

  "GET /api/ledger-accounts": read("read ledger accounts"),
  "GET /api/ledger-accounts/reconciliation": read("read the reconciliation"),
  "POST /api/ledger-accounts": operate("create accounts"),
  "PUT /api/ledger-accounts/:id/daily-outflow-limit": administer("set accounts' daily outflow limits"),
  "GET /api/balance-sweeps": read("read sweeps"),
  "GET /api/balance-sweeps/count": read("read sweeps"),
  "GET /api/balance-sweeps/charts": read("read sweeps"),
  "GET /api/balance-sweeps/auto-sweep/plan": read("read the automatic sweep's plan"),
  "GET /api/balance-sweeps/:id": read("read sweeps"),
  "GET /api/balance-sweeps/:id/iso20022": read("read sweeps"),
  "POST /api/balance-sweeps": operate("request sweeps"),
  "POST /api/balance-sweeps/auto-sweep": operate("request the automatic sweep"),

  "GET /api/cards": read("read cards"),
  "GET /api/cards/funding-sources": read("read card funding sources"),
  "POST /api/cards/issue": operate("request card issuance"),
  "POST /api/cards/distribute": operate("distribute cards"),
  "POST /api/cards/:cardId/load": operate("request card loads"),

  "GET /api/fintech/status": read("read fintech provider status"),
  "POST /api/plaid/verify-account": operate("verify accounts with providers"),
  "POST /api/plaid/check-balance": operate("check balances with providers"),
  "POST /api/visa/direct-transfer": operate("send transfers through providers"),
  "POST /api/visa/push-payment": operate("send payments through providers"),

  // Operators and administrators file and follow up expedition requests; every role reads them.
  "GET /api/expedition-requests": read("read expedition requests"),
  "POST /api/expedition-requests": {
    roles: ["operator", "administrator"],
    action: "file expedition requests",
  },
  "PATCH /api/expedition-requests/:id": {
    roles: ["operator", "administrator"],
    action: "update expedition requests",
  },

  "GET /api/approvals": read("read approval requests"),
  "GET /api/approvals/:id": read("read approval requests"),
  "GET /api/approvals/preview": {
    roles: ["operator", "administrator"],
    action: "see whether an action will execute or go to approval",
  },
  // Approvers decide money, administrators administration: the service checks which one a request needs.
  "POST /api/approvals/:id/approve": { roles: ["approver", "administrator"], action: "approve requests" },
  "POST /api/approvals/:id/reject": { roles: ["approver", "administrator"], action: "reject requests" },
  "POST /api/approvals/:id/cancel": { roles: ["operator", "administrator"], action: "withdraw their requests" },
  "GET /api/approval-settings": read("read approval settings"),
  "PUT /api/approval-settings": administer("change approval settings"),

  // Each user's own notifications: the service shows only the events addressed to the caller.
  "GET /api/notifications": { roles: "signed-in", action: "read their notifications" },
  "GET /api/notifications/stream": { roles: "signed-in", action: "follow their notifications" },
  "POST /api/notifications/:id/read": { roles: "signed-in", action: "mark their notifications read" },
  "POST /api/notifications/read-all": { roles: "signed-in", action: "mark their notifications read" },
  "GET /api/notifications/preferences": { roles: "signed-in", action: "read their e-mail choices" },
  "PUT /api/notifications/preferences": { roles: "signed-in", action: "choose their e-mail notifications" },
  "GET /api/settings/smtp": read("read the e-mail settings"),
  "PUT /api/settings/smtp": administer("change the e-mail settings"),
  "POST /api/settings/smtp/test": administer("send a test e-mail"),
};

export function routeKey(method: string, path: string): string {
  return `${method === "HEAD" ? "GET" : method} ${path}`;
}

export function ruleFor(method: string, path: string): RouteRule | undefined {
  return ROUTE_RULES[routeKey(method, path)];
}

export function holdsAny(roles: readonly Role[], needed: readonly Role[]): boolean {
  return needed.some((role) => roles.includes(role));
}

export function mayCall(rule: RouteRule, roles: readonly Role[]): boolean {
  return rule.roles === "signed-in" || holdsAny(roles, rule.roles);
}

/** "Only operators can request sweeps", "Only administrators or auditors can read the audit trail". */
export function forbiddenMessage(rule: RouteRule): string {
  if (rule.roles === "signed-in") return `Sign in to ${rule.action}`;
  const names = rule.roles.map((role) => ROLE_PLURALS[role]);
  const who = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
  return `Only ${who} can ${rule.action}`;
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/**
 * Reports that copy out what only some roles may read: the audit trail and the API request log.
 * Generating or downloading one needs the same roles as reading its source.
 */
export const RESTRICTED_REPORT_TYPES: Readonly<Record<string, RouteRule>> = {
  "audit-trail": oversee("export the audit trail"),
  "api-usage": oversee("export the API request log"),
};

/**
 * An account whose roles conflict (held from before the separation of roles) may still read, and an
 * administrator may still take power away, but it neither moves money nor requests nor decides.
 */
export function blockedByRoleConflict(method: string, rule: RouteRule): boolean {
  if (method === "GET" || method === "HEAD" || rule.roles === "signed-in") return false;
  return rule.roles.includes("operator") || rule.roles.includes("approver");
}
