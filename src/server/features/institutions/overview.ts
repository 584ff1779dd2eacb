/**
 * One institution with everything recorded about it (the /institutions/:id page): its
 * details, status history and recent audit events (from the audit trail), its routing codes and
 * BICs, its national routing registry entry (matched by one of its BICs or by its name, as the
 * registry keeps no institution id) and its ledger accounts. Each list is bounded.
 */
import { sql } from "drizzle-orm";
import { formatMoney } from "../../../domain/money.ts";
import type { Queryable } from "../../db/database.ts";
import { notFound } from "../../http/errors.ts";
import type { Institution } from "./schemas.ts";
import { AUDIT_ENTITY_TYPE } from "./service.ts";
import { institutionAsOf } from "./as_of.ts";
import { scheduledVersionsOf } from "../../registry_history/versions.ts";

export const MAX_OVERVIEW_CODES = 100;
export const MAX_OVERVIEW_ACCOUNTS = 100;
export const MAX_OVERVIEW_AUDIT_EVENTS = 20;
export const MAX_STATUS_HISTORY = 50;

/**
 * One step of the status history. A change a second person approved credits each reason to its
 * author: the requester's reason under the requester, the approver's decision under the approver
 * (`by`, who performed it). A change made directly has no request and its reason is `by`'s.
 */
export interface StatusHistoryEntry {
  at: string;
  from: string | null;
  to: string;
  /** Who performed the change: the approver of a requested change. */
  by: string;
  /** The reason given by whoever wrote it first: the requester's, or `by`'s for a direct change. */
  reason: string | null;
  request: { by: string; at: string; reason: string } | null;
  /** The approver's reason for approving a requested change. */
  decisionReason: string | null;
}

interface HistoryRow {
  at: string;
  changes: string | null;
  action: string;
  by: string;
  requestedBy: string | null;
  requestedAt: string | null;
  requestReason: string | null;
  decisionReason: string | null;
}

/**
 * The approved request a status change executed: the same institution, approver and target status,
 * decided at or just before the change (the decision and its execution share one transaction).
 */
const EXECUTED_REQUEST = sql.raw(`(SELECT r.id FROM approval_requests r
  WHERE r.kind = 'institution_status' AND r.status = 'approved' AND r.result_entity_id = a.entity_id
    AND r.executed_by = a.performed_by AND json_extract(r.payload, '$.status') = json_extract(a.changes, '$.after.status')
    AND r.decided_at <= a.performed_at
  ORDER BY r.decided_at DESC LIMIT 1)`);

const REQUESTER_NAME = sql.raw(
  `coalesce(nullif(trim(coalesce(rq.first_name, '') || ' ' || coalesce(rq.last_name, '')), ''), rq.email)`,
);

/** A version still to come: "From 2027-03-01: name → New Name". */
export interface ScheduledChange {
  validFrom: string;
  summary: string;
  changes: Record<string, unknown>;
}

export interface InstitutionOverview {
  institution: Institution;
  scheduledChanges: ScheduledChange[];
  statusHistory: StatusHistoryEntry[];
  routingCodes: { id: string; code: string; branchCode: string | null; status: string; createdAt: string }[];
  bicCodes: {
    id: string;
    bicCode: string;
    membershipType: string | null;
    status: string;
    validUntil: string | null;
  }[];
  nationalRegistryEntry: {
    id: string;
    centralBankCode: string;
    nationalBankCode: string;
    swiftBicCode: string | null;
    ibanPrefix: string | null;
    participantStatus: string;
  } | null;
  accounts: {
    id: string;
    accountNumber: string;
    accountName: string;
    accountType: string;
    currency: string;
    currentBalance: string;
    accountStatus: string;
  }[];
  recentAuditEvents: { at: string; action: string; by: string }[];
}

const ACTOR_NAME = sql.raw(
  `coalesce(nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), ''), u.email, 'System')`,
);

/** The institution as in force at `at` (now), with the changes that come after it. */
export async function institutionOverview(db: Queryable, id: string, at: string): Promise<InstitutionOverview> {
  const institution = await institutionAsOf(db, id, at);
  if (!institution) throw notFound("Institution");
  const [scheduled, history, routingCodes, bicCodes, accounts, audit] = await Promise.all([
    scheduledVersionsOf(db, "institution", id),
    db.all<HistoryRow>(
      sql`SELECT a.performed_at AS at,
      a.changes AS changes, a.action AS action, ${ACTOR_NAME} AS by,
      ${REQUESTER_NAME} AS requestedBy, req.requested_at AS requestedAt, req.request_reason AS requestReason,
      req.decision_reason AS decisionReason
      FROM audit_trail a LEFT JOIN users u ON u.id = a.performed_by
      LEFT JOIN approval_requests req ON a.action = 'status_change' AND req.id = ${EXECUTED_REQUEST}
      LEFT JOIN users rq ON rq.id = req.requested_by
      WHERE a.entity_type = ${AUDIT_ENTITY_TYPE} AND a.entity_id = ${id} AND a.action IN ('create', 'status_change')
      ORDER BY a.seq DESC LIMIT ${MAX_STATUS_HISTORY}`,
    ),
    db.all<InstitutionOverview["routingCodes"][number]>(
      sql`SELECT id, code, branch_code AS branchCode, status,
      created_at AS createdAt FROM routing_codes WHERE institution_id = ${id}
      ORDER BY created_at DESC LIMIT ${MAX_OVERVIEW_CODES}`,
    ),
    db.all<InstitutionOverview["bicCodes"][number]>(sql`SELECT id, bic_code AS bicCode,
      membership_type AS membershipType, status, valid_until AS validUntil FROM swift_codes
      WHERE institution_id = ${id} ORDER BY bic_code LIMIT ${MAX_OVERVIEW_CODES}`),
    db.all<{
      id: string;
      accountNumber: string;
      accountName: string;
      accountType: string;
      currency: string;
      balanceMinor: number;
      accountStatus: string;
    }>(
      sql`SELECT id, account_number AS accountNumber, account_name AS accountName, account_type AS accountType,
      currency, current_balance_minor AS balanceMinor, account_status AS accountStatus FROM ledger_accounts
      WHERE institution_id = ${id} ORDER BY account_number LIMIT ${MAX_OVERVIEW_ACCOUNTS}`,
    ),
    db.all<InstitutionOverview["recentAuditEvents"][number]>(
      sql`SELECT a.performed_at AS at, a.action AS action,
      ${ACTOR_NAME} AS by FROM audit_trail a LEFT JOIN users u ON u.id = a.performed_by
      WHERE a.entity_type = ${AUDIT_ENTITY_TYPE} AND a.entity_id = ${id}
      ORDER BY a.seq DESC LIMIT ${MAX_OVERVIEW_AUDIT_EVENTS}`,
    ),
  ]);
  const entry = await nationalRegistryEntry(db, institution.name, bicCodes.map((bic) => bic.bicCode));
  return {
    institution,
    // Versions written late by the scheduler are in force already at `at`.
    scheduledChanges: scheduled.filter((version) => version.validFrom > at)
      .map(({ validFrom, summary, changes }) => ({ validFrom, summary, changes })),
    statusHistory: history.map(statusChange),
    routingCodes,
    bicCodes,
    nationalRegistryEntry: entry,
    accounts: accounts.map(({ balanceMinor, ...account }) => ({
      ...account,
      currentBalance: formatMoney(BigInt(balanceMinor)),
    })),
    recentAuditEvents: audit,
  };
}

/** A create or status_change audit row as a step of the status history. */
function statusChange(row: HistoryRow): StatusHistoryEntry {
  const changes = row.changes ? JSON.parse(row.changes) : {};
  if (row.action === "create") {
    const to = changes?.after?.status ?? changes?.status ?? "pending";
    return { at: row.at, from: null, to, by: row.by, reason: null, request: null, decisionReason: null };
  }
  const reason = typeof changes?.reason === "string" ? changes.reason : null;
  const requested = row.requestedBy !== null && row.requestedAt !== null;
  return {
    at: row.at,
    from: changes?.before?.status ?? null,
    to: changes?.after?.status ?? "",
    by: row.by,
    reason: requested ? row.requestReason : reason,
    request: requested ? { by: row.requestedBy!, at: row.requestedAt!, reason: row.requestReason ?? "" } : null,
    decisionReason: requested ? row.decisionReason : null,
  };
}

/** The national registry's latest entry for one of the institution's BICs or for its name. */
async function nationalRegistryEntry(
  db: Queryable,
  name: string,
  bics: string[],
): Promise<InstitutionOverview["nationalRegistryEntry"]> {
  const [entry] = await db.all<NonNullable<InstitutionOverview["nationalRegistryEntry"]>>(sql`SELECT id,
    central_bank_code AS centralBankCode, national_bank_code AS nationalBankCode, swift_bic_code AS swiftBicCode,
    iban_prefix AS ibanPrefix, participant_status AS participantStatus FROM national_routing_registry
    WHERE ${
    bics.length > 0 ? sql`swift_bic_code IN (${sql.join(bics.map((b) => sql`${b}`), sql`, `)}) OR ` : sql``
  }
      institution_name = ${name} COLLATE NOCASE
    ORDER BY registration_date DESC LIMIT 1`);
  return entry ?? null;
}
