/**
 * Names for the audit trail's sentences: the entities a page of rows is about, read in one query
 * per entity type (a page holds at most a few dozen rows), with the screen each is shown on. A row
 * whose entity is gone (a deleted webhook) is named from its own changes.
 */
import { type SQL, sql } from "drizzle-orm";
import {
  amountInChanges,
  type AuditAmount,
  type AuditFacts,
  labelInChanges,
  type NamedRef,
  recordOf,
} from "../../../domain/audit_phrases.ts";
import { formatMoney } from "../../../domain/money.ts";
import { SYSTEM_USER_ID } from "../../../../db/schema.ts";
import type { Queryable } from "../../db/database.ts";

/** The users screen: where an actor, or a user the trail is about, is shown. */
export const USERS_LINK = "/users";

/** "Ada Lovelace (ada@bank.example)": two accounts can share a name, never an address. */
const personName =
  sql`coalesce(nullif(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), '') || ' (' || email || ')',
  email)`;

/** Where an entity type's rows live: its table, the name a person knows a row by, and its screen. */
interface EntitySource {
  table: string;
  label: SQL;
  link: (id: string) => string;
}

const screen = (path: string) => () => path;
const users: EntitySource = { table: "users", label: personName, link: screen(USERS_LINK) };

const ENTITY_SOURCES: Readonly<Record<string, EntitySource>> = {
  institution: {
    table: "institutions",
    label: sql`name`,
    link: (id) => `/institutions/${encodeURIComponent(id)}`,
  },
  ledger_account: {
    table: "ledger_accounts",
    label: sql`account_name || ' (' || account_number || ')'`,
    link: screen("/balance-sweep"),
  },
  card: {
    table: "cards",
    label: sql`card_number_masked || ' (' || cardholder_name || ')'`,
    link: screen("/card-management"),
  },
  user: users,
  session: users,
  user_identity: users,
  central_bank_connection: {
    table: "central_bank_connections",
    label: sql`partner_central_bank`,
    link: screen("/central-bank-connections"),
  },
  api_key: { table: "api_keys", label: sql`name`, link: screen("/api-management") },
  webhook: { table: "webhooks", label: sql`url`, link: screen("/api-management") },
  routing_code: { table: "routing_codes", label: sql`code`, link: screen("/routing-codes") },
  swift_code: { table: "swift_codes", label: sql`bic_code`, link: screen("/swift-bic") },
  national_routing_entry: {
    table: "national_routing_registry",
    label: sql`institution_name`,
    link: screen("/national-routing"),
  },
  iban_config: { table: "iban_configs", label: sql`country_code`, link: screen("/iban-validation") },
  expedition_request: {
    table: "expedition_requests",
    label: sql`partner`,
    link: screen("/partnership-expediter"),
  },
  compliance_filing: { table: "compliance_filings", label: sql`name`, link: screen("/reports") },
  report: { table: "generated_reports", label: sql`file_name`, link: screen("/reports") },
};

/** Entity types a sentence names by their screen alone: settings, a sweep, a provider call. */
const SCREEN_ONLY: Readonly<Record<string, string>> = {
  approval_request: "/approvals",
  approval_settings: "/settings",
  balance_sweep: "/balance-sweep",
  fintech_operation: "/fintech-operations",
  sign_in_settings: "/settings",
  smtp_settings: "/settings",
  system_settings: "/settings",
  webhook_delivery: "/api-management",
};

/** Entity types whose id is itself the name a person knows (a region). */
const ID_IS_NAME = new Set(["node"]);

/** What a sentence is made from: the audit row and its actor's name. */
export interface NamedRow {
  entityType: string;
  entityId: string;
  action: string;
  changes: unknown;
  performedBy: string;
  performedByName: string;
}

interface ApprovalRow {
  id: string;
  kind: string;
  summary: string;
  amountMinor: number | null;
  currency: string | null;
}

interface Lookups {
  names: Map<string, { label: string; currency: string | null }>;
  approvals: Map<string, ApprovalRow>;
}

const keyOf = (entityType: string, id: string) => `${entityType}\u0000${id}`;

async function lookupEntities(db: Queryable, wanted: Map<string, Set<string>>): Promise<Lookups> {
  const names: Lookups["names"] = new Map();
  for (const [entityType, ids] of wanted) {
    const source = ENTITY_SOURCES[entityType];
    if (!source || ids.size === 0) continue;
    const currency = source.table === "ledger_accounts" ? sql`currency` : sql`NULL`;
    const rows = await db.all<{ id: string; label: string | null; currency: string | null }>(
      sql`SELECT id, ${source.label} AS label, ${currency} AS currency FROM ${sql.identifier(source.table)}
        WHERE id IN (${sql.join([...ids].map((id) => sql`${id}`), sql`, `)})`,
    );
    for (const row of rows) {
      if (row.label) names.set(keyOf(entityType, row.id), { label: row.label, currency: row.currency });
    }
  }
  const approvalIds = [...(wanted.get("approval_request") ?? [])];
  const approvals = new Map<string, ApprovalRow>();
  if (approvalIds.length > 0) {
    const rows = await db.all<ApprovalRow>(
      sql`SELECT id, kind, summary, amount_minor AS amountMinor, currency FROM approval_requests
        WHERE id IN (${sql.join(approvalIds.map((id) => sql`${id}`), sql`, `)})`,
    );
    for (const row of rows) approvals.set(row.id, row);
  }
  return { names, approvals };
}

/** Every entity a page's sentences name: the rows' own, and the accounts their movements touch. */
function wantedEntities(rows: readonly NamedRow[]): Map<string, Set<string>> {
  const wanted = new Map<string, Set<string>>();
  const want = (entityType: string, id: unknown) => {
    if (typeof id !== "string" || id === "") return;
    if (!wanted.has(entityType)) wanted.set(entityType, new Set());
    wanted.get(entityType)!.add(id);
  };
  for (const row of rows) {
    want(row.entityType, row.entityId);
    const changes = recordOf(row.changes);
    if (row.action === "opening") want("ledger_account", changes?.accountId);
    if (row.action === "card_funding") want("card", changes?.cardId);
  }
  return wanted;
}

/** "Treasury (ACC-1)" from a sweep's or a request's account summary, linked to the accounts' screen. */
function accountRef(value: unknown): NamedRef | null {
  const account = recordOf(value);
  if (typeof account?.accountNumber !== "string") return null;
  const name = typeof account.accountName === "string"
    ? `${account.accountName} (${account.accountNumber})`
    : account.accountNumber;
  return { label: name, link: ENTITY_SOURCES.ledger_account.link("") };
}

function entityRef(row: NamedRow, lookups: Lookups): NamedRef | null {
  const source = ENTITY_SOURCES[row.entityType];
  const found = lookups.names.get(keyOf(row.entityType, row.entityId));
  if (source && found) return { label: found.label, link: source.link(row.entityId) };
  if (ID_IS_NAME.has(row.entityType)) return { label: row.entityId, link: null };
  // A failed sign-in of an address no account has: the address is the name.
  if (row.entityType === "session" && row.entityId.includes("@")) return { label: row.entityId, link: null };
  if (SCREEN_ONLY[row.entityType] || row.entityType === "session") return null;
  const label = labelInChanges(row.changes);
  return label === null ? null : { label, link: null };
}

function lookedUp(lookups: Lookups, entityType: string, id: unknown): NamedRef | null {
  if (typeof id !== "string") return null;
  const found = lookups.names.get(keyOf(entityType, id));
  return found ? { label: found.label, link: ENTITY_SOURCES[entityType].link(id) } : null;
}

/** What an approval request moves: its amount, and a sweep's accounts from its summary. */
function approvalFacts(row: ApprovalRow | undefined): Partial<AuditFacts> {
  if (!row) return {};
  const summary = recordOf(JSON.parse(row.summary));
  const amount: AuditAmount | null = row.amountMinor === null || row.currency === null
    ? null
    : { amount: formatMoney(BigInt(row.amountMinor)), currency: row.currency };
  return {
    requestKind: row.kind,
    amount,
    from: accountRef(summary?.source),
    to: accountRef(summary?.target),
  };
}

/** The facts of one row's sentence, with every name the page's lookups found. */
function factsOf(row: NamedRow, lookups: Lookups): AuditFacts {
  const changes = recordOf(row.changes);
  const currency = lookups.names.get(keyOf(row.entityType, row.entityId))?.currency ??
    (row.action === "opening"
      ? lookups.names.get(keyOf("ledger_account", String(changes?.accountId)))?.currency
      : null) ??
    null;
  const facts: AuditFacts = {
    entityType: row.entityType,
    action: row.action,
    changes: row.changes,
    actor: { label: row.performedByName, link: row.performedBy === SYSTEM_USER_ID ? null : USERS_LINK },
    entity: entityRef(row, lookups),
    screenLink: SCREEN_ONLY[row.entityType] ?? null,
    amount: amountInChanges(row.changes, currency),
  };
  if (row.entityType === "approval_request") {
    return { ...facts, ...approvalFacts(lookups.approvals.get(row.entityId)) };
  }
  if (row.action === "execute") {
    const after = recordOf(changes?.after);
    return { ...facts, from: accountRef(after?.sourceAccount), to: accountRef(after?.targetAccount) };
  }
  if (row.action === "opening") {
    return { ...facts, to: lookedUp(lookups, "ledger_account", changes?.accountId) };
  }
  if (row.action === "card_funding") return { ...facts, to: lookedUp(lookups, "card", changes?.cardId) };
  return facts;
}

/** The facts of each row's sentence, in the rows' order. */
export async function auditFactsOf(db: Queryable, rows: readonly NamedRow[]): Promise<AuditFacts[]> {
  const lookups = await lookupEntities(db, wantedEntities(rows));
  return rows.map((row) => factsOf(row, lookups));
}
