/**
 * The approval queue: listing requests, the approver's decision, the maker's withdrawal, and the
 * administrator's thresholds and expiry. An approval claims the request with one guarded UPDATE
 * (status 'pending', not expired, not the caller's own) and executes it in the same transaction,
 * together with both audit rows: when the executor refuses (the funds are gone, the institution
 * moved on), everything rolls back, the request stays pending and nothing moves.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Role } from "../../../domain/access.ts";
import { DEFAULT_THRESHOLD_MINOR, scopeOfKind, statusAt } from "../../../domain/approval.ts";
import { DECISION_REFUSAL_MESSAGES, decisionRefusal } from "../../../domain/dual_control.ts";
import { assertMayActAlone, type GrantOrigin, grantsOf } from "../../auth/role_grants.ts";
import { grantNote } from "../../auth/users.ts";
import { formatMoney } from "../../../domain/money.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { publishEvent } from "../../events/outbox.ts";
import {
  APPROVAL_AUDIT_ENTITY,
  APPROVAL_REQUEST_SELECT,
  APPROVALS_LINK,
  type ApprovalExecutors,
  type ApprovalRequestDto,
  type ApprovalRequestRow,
  awaitingDecision,
  type ExecutionResult,
  administrationDraft,
  type RequestDraft,
  requestTitle,
  toApprovalDto,
} from "./four_eyes.ts";
import { orderBySql } from "../../http/list_sorting.ts";
import {
  type ApprovalSortKey,
  CURRENCY_CODES,
  type ListApprovalsQuery,
  type UpdateSettingsInput,
} from "./schemas.ts";

export interface Decider {
  userId: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  roles: readonly Role[];
}

export async function listApprovals(
  db: Queryable,
  query: ListApprovalsQuery,
  callerId: string,
): Promise<{ items: ApprovalRequestDto[]; total: number }> {
  const now = new Date().toISOString();
  const conditions = [sql`1 = 1`];
  if (query.status === "pending") conditions.push(awaitingDecision(now));
  else if (query.status === "expired") conditions.push(sql`a.status = 'pending' AND a.expires_at <= ${now}`);
  else if (query.status) conditions.push(sql`a.status = ${query.status}`);
  if (query.kind) conditions.push(sql`a.kind = ${query.kind}`);
  if (query.requestedBy === "me") conditions.push(sql`a.requested_by = ${callerId}`);
  const where = sql.join(conditions, sql` AND `);
  const sortColumns: Record<ApprovalSortKey, SQL> = {
    requestedAt: sql`a.requested_at`,
    kind: sql`a.kind`,
    amount: sql`a.amount_minor`,
    // The requester's name as the table shows it (an output column of APPROVAL_REQUEST_SELECT).
    requester: sql`requestedByName COLLATE NOCASE`,
    // The status the table shows: a pending request past its expiry reads "expired".
    status: sql`CASE WHEN a.status = 'pending' AND a.expires_at <= ${now} THEN 'expired' ELSE a.status END`,
  };
  const order = orderBySql(sortColumns, query, sql`a.requested_at DESC, a.id`);
  const rows = await db.all<ApprovalRequestRow>(
    sql`${sql.raw(APPROVAL_REQUEST_SELECT)} WHERE ${where} ORDER BY ${order}
      LIMIT ${query.limit} OFFSET ${query.offset}`,
  );
  const [count] = await db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM approval_requests a WHERE ${where}`,
  );
  const at = new Date(now);
  return { items: rows.map((row) => toApprovalDto(row, at)), total: count?.n ?? 0 };
}

async function readRequest(db: Queryable, id: string): Promise<ApprovalRequestRow> {
  const [row] = await db.all<ApprovalRequestRow>(sql`${sql.raw(APPROVAL_REQUEST_SELECT)} WHERE a.id = ${id}`);
  if (!row) throw notFound("Approval request");
  return row;
}

export async function getApproval(db: Queryable, id: string): Promise<ApprovalRequestDto> {
  return toApprovalDto(await readRequest(db, id));
}

function notPending(row: ApprovalRequestRow, now: Date): AppError {
  const status = statusAt(row.status, row.expiresAt, now);
  const message = status === "expired"
    ? `This request expired at ${row.expiresAt} and can no longer be decided`
    : `This request is already ${status}`;
  return new AppError("conflict", message, { field: "status", extra: { reason: status, status } });
}

/**
 * Four-eyes holds against the grant history, not the user id alone: the decider holds the role the
 * request's scope needs through a grant that decides, and neither gave the other their role.
 */
async function assertMayDecide(tx: Tx, row: ApprovalRequestRow, decider: Decider): Promise<void> {
  const [requesterGrants, deciderGrants] = await Promise.all([grantsOf(tx, row.requestedBy), grantsOf(tx, decider.userId)]);
  const refusal = decisionRefusal({
    scope: scopeOfKind(row.kind),
    requesterId: row.requestedBy,
    requesterGrants,
    deciderId: decider.userId,
    deciderGrants,
  });
  if (refusal) throw new AppError("forbidden", DECISION_REFUSAL_MESSAGES[refusal], { extra: { reason: refusal } });
}

/** The decided request, with what the approval hands out once (a new user's one-time password). */
export type DecidedRequest = ApprovalRequestDto & { initialPassword?: string };

export async function decide(
  db: Database,
  executors: ApprovalExecutors,
  actor: Actor,
  decider: Decider,
  id: string,
  decision: "approve" | "reject",
  reason: string,
): Promise<DecidedRequest> {
  let outcome: ExecutionResult | null = null;
  await db.transaction(async (tx) => {
    const row = await readRequest(tx, id);
    await assertMayDecide(tx, row, decider);
    const now = new Date();
    const status = decision === "approve" ? "approved" : "rejected";
    // The decision itself: of concurrent deciders in any process, only one UPDATE finds the row pending.
    const claimed = await tx.all<{ id: string }>(sql`UPDATE approval_requests
      SET status = ${status}, decided_by = ${decider.userId}, decided_at = ${now.toISOString()},
        decision_reason = ${reason}, executed_by = ${decision === "approve" ? decider.userId : null}
      WHERE id = ${id} AND status = 'pending' AND expires_at > ${now.toISOString()} AND requested_by <> ${decider.userId}
      RETURNING id`);
    if (claimed.length === 0) throw notPending(row, now);
    if (decision === "approve") outcome = await execute(tx, executors, actor, decider, row);
    await recordAudit(tx, actor, {
      entityType: APPROVAL_AUDIT_ENTITY,
      entityId: id,
      action: decision,
      changes: {
        before: { status: "pending" },
        after: {
          status,
          reason,
          requestedBy: row.requestedBy,
          ...(outcome ? { executed: { entityType: outcome.entityType, entityId: outcome.entityId } } : {}),
        },
      },
    });
    await announceDecision(tx, row, decider, status);
  });
  const decided = await getApproval(db.read, id);
  const handout = (outcome as ExecutionResult | null)?.handout;
  return handout ? { ...decided, ...handout } : decided;
}

/** Tells the requester (only them) what became of their request. */
async function announceDecision(
  tx: Tx,
  row: ApprovalRequestRow,
  decider: Decider,
  status: "approved" | "rejected",
): Promise<void> {
  const name = [decider.firstName, decider.lastName].filter(Boolean).join(" ") || decider.email;
  await publishEvent(tx, {
    kind: "approval_decided",
    subjectType: APPROVAL_AUDIT_ENTITY,
    subjectId: row.id,
    summary: `Your request (${requestTitle(row.kind, row.amountMinor, row.currency)}) was ${status} by ${name}`,
    link: APPROVALS_LINK,
    data: { decision: status, approvalKind: row.kind },
    audience: { userId: row.requestedBy },
  });
}

async function execute(
  tx: Tx,
  executors: ApprovalExecutors,
  actor: Actor,
  decider: Decider,
  row: ApprovalRequestRow,
): Promise<ExecutionResult> {
  const outcome = await executors[row.kind]({
    tx,
    actor,
    approver: { userId: decider.userId, firstName: decider.firstName, lastName: decider.lastName, email: decider.email },
    requestedBy: row.requestedBy,
    requestId: row.id,
  }, JSON.parse(row.payload));
  await tx.run(sql`UPDATE approval_requests SET result_entity_type = ${outcome.entityType},
    result_entity_id = ${outcome.entityId} WHERE id = ${row.id}`);
  return outcome;
}

/** The maker withdraws their own pending request. */
export async function cancel(db: Database, actor: Actor, id: string): Promise<ApprovalRequestDto> {
  await db.transaction(async (tx) => {
    const row = await readRequest(tx, id);
    if (row.requestedBy !== actor.userId) {
      throw new AppError("forbidden", "Only the requester can withdraw a request");
    }
    const now = new Date();
    const claimed = await tx.all<{ id: string }>(sql`UPDATE approval_requests
      SET status = 'cancelled', decided_at = ${now.toISOString()}
      WHERE id = ${id} AND status = 'pending' AND expires_at > ${now.toISOString()} RETURNING id`);
    if (claimed.length === 0) throw notPending(row, now);
    await recordAudit(tx, actor, {
      entityType: APPROVAL_AUDIT_ENTITY,
      entityId: id,
      action: "cancel",
      changes: { before: { status: "pending" }, after: { status: "cancelled" } },
    });
  });
  return await getApproval(db.read, id);
}

export interface ApprovalSettings {
  thresholds: Record<string, string>;
  expiryMinutes: number;
}

export async function getSettings(db: Queryable): Promise<ApprovalSettings> {
  const rows = await db.all<{ currency: string; thresholdMinor: number }>(
    sql`SELECT currency, threshold_minor AS thresholdMinor FROM approval_thresholds`,
  );
  const thresholds: Record<string, string> = {};
  for (const currency of CURRENCY_CODES) {
    const row = rows.find((candidate) => candidate.currency === currency);
    thresholds[currency] = formatMoney(row ? BigInt(row.thresholdMinor) : DEFAULT_THRESHOLD_MINOR);
  }
  const [policy] = await db.all<{ ttl: number }>(
    sql`SELECT request_ttl_minutes AS ttl FROM approval_policy WHERE id = 1`,
  );
  return { thresholds, expiryMinutes: policy?.ttl ?? 0 };
}

/** JSON-safe as stored in a request: thresholds back to decimal strings. */
function settingsPayload(input: UpdateSettingsInput) {
  const thresholds = input.thresholds === undefined ? undefined : Object.fromEntries(
    Object.entries(input.thresholds).map(([currency, minor]) => [currency, formatMoney(BigInt(minor as bigint))]),
  );
  return { ...(thresholds ? { thresholds } : {}), ...(input.expiryMinutes !== undefined ? { expiryMinutes: input.expiryMinutes } : {}) };
}

export function settingsDraft(actor: Actor, input: UpdateSettingsInput): RequestDraft {
  const payload = settingsPayload(input);
  return administrationDraft(
    "approval_settings",
    actor,
    { payload, summary: payload },
    (inner, origin) => updateSettings(inner, actor, input, origin),
  );
}

export async function updateSettings(
  db: Database,
  actor: Actor,
  input: UpdateSettingsInput,
  origin: GrantOrigin,
): Promise<ApprovalSettings> {
  await db.transaction(async (tx) => {
    await assertMayActAlone(tx, origin);
    const before = await getSettings(tx);
    const now = new Date().toISOString();
    for (const [currency, minor] of Object.entries(input.thresholds ?? {})) {
      await tx.run(sql`INSERT INTO approval_thresholds (currency, threshold_minor, updated_at, updated_by)
        VALUES (${currency}, ${Number(minor)}, ${now}, ${actor.userId})
        ON CONFLICT (currency) DO UPDATE SET threshold_minor = excluded.threshold_minor,
          updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
    }
    if (input.expiryMinutes !== undefined) {
      await tx.run(
        sql`UPDATE approval_policy SET request_ttl_minutes = ${input.expiryMinutes}, updated_at = ${now},
        updated_by = ${actor.userId} WHERE id = 1`,
      );
    }
    await recordAudit(tx, actor, {
      entityType: "approval_settings",
      entityId: "approval_settings",
      action: "update",
      changes: { before, after: await getSettings(tx), control: grantNote(origin) },
    });
  });
  return await getSettings(db.read);
}
