/**
 * Shared plumbing of four-eyes control: the features whose actions may need a second
 * person (sweeps, ledger, cards, institutions) file requests here instead of executing; the
 * approvals feature executes them at approval through the executors that app.ts hands it.
 */
import type { Context } from "hono";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import {
  amountNeedsApproval,
  APPROVAL_KIND_LABELS,
  type ApprovalKind,
  type ApprovalStatus,
  DEFAULT_REQUEST_TTL_MINUTES,
  DEFAULT_THRESHOLD_MINOR,
  MAX_REASON_LENGTH,
  scopeOfKind,
  statusAt,
  type StoredApprovalStatus,
} from "../../../domain/approval.ts";
import { formatCurrencyEnUs, formatMoney } from "../../../domain/money.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import {
  type Database,
  databaseInTransaction,
  type Queryable,
  statementsOf,
  type Tx,
} from "../../db/database.ts";
import { AppError } from "../../http/errors.ts";
import { publishEvent } from "../../events/outbox.ts";
import { DECIDING_ROLE } from "../../../domain/dual_control.ts";
import { dualControlState, type GrantOrigin, requestedGrant, soleGrant } from "../../auth/role_grants.ts";

export const APPROVAL_AUDIT_ENTITY = "approval_request";

/** Who acts when a request executes: the approver, with the names the movement lists show. */
export interface ExecutionContext {
  tx: Tx;
  actor: Actor;
  approver: { userId: string; firstName: string | null; lastName: string | null; email: string };
  requestedBy: string;
  /** The request being executed, for records that name the approval they came from. */
  requestId: string;
}

export interface ExecutionResult {
  entityType: string;
  entityId: string;
  result: unknown;
  /** A secret the approval hands out once, in its answer and nowhere else (a new user's one-time password). */
  handout?: { initialPassword: string };
}

/** Re-validates the stored payload and performs the action inside the approval's transaction. */
export type ApprovalExecutor = (context: ExecutionContext, payload: unknown) => Promise<ExecutionResult>;
export type ApprovalExecutors = Readonly<Record<ApprovalKind, ApprovalExecutor>>;

export interface RequestDraft {
  kind: ApprovalKind;
  /** The validated request body, JSON-safe (money as decimal strings). */
  payload: unknown;
  /** What the request will do, for the queue: labels and figures as they are now. */
  summary: Record<string, unknown>;
  amountMinor: bigint | null;
  currency: string | null;
  /**
   * Performs the action on the database it is given; run at submission inside a savepoint that is
   * always rolled back, so a request that could not execute now (no such account, funds short) is
   * refused at once with the action's own answer instead of waiting in the queue.
   */
  rehearse: (db: Database) => Promise<unknown>;
}

const REHEARSAL_SAVEPOINT = "four_eyes_rehearsal";

async function rehearse(db: Database, tx: Tx, action: (db: Database) => Promise<unknown>): Promise<void> {
  const statements = statementsOf(tx);
  await statements.run(`SAVEPOINT ${REHEARSAL_SAVEPOINT}`, []);
  try {
    await action(databaseInTransaction(db, tx));
  } finally {
    await statements.run(`ROLLBACK TO ${REHEARSAL_SAVEPOINT}`, []);
    await statements.run(`RELEASE ${REHEARSAL_SAVEPOINT}`, []);
  }
}

export interface ApprovalRequestDto {
  id: string;
  kind: ApprovalKind;
  status: ApprovalStatus;
  summary: Record<string, unknown>;
  amount: string | null;
  currency: string | null;
  requestedBy: string;
  requestedByName: string;
  requestedByEmail: string;
  requestReason: string;
  requestedAt: string;
  expiresAt: string;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedByEmail: string | null;
  decidedAt: string | null;
  decisionReason: string | null;
  executedBy: string | null;
  executedByName: string | null;
  executedByEmail: string | null;
  resultEntityType: string | null;
  resultEntityId: string | null;
}

/** A stored request as read back: the DTO's fields, with the payload, summary and amount as stored. */
export interface ApprovalRequestRow extends Omit<ApprovalRequestDto, "status" | "summary" | "amount"> {
  [column: string]: unknown;
  status: StoredApprovalStatus;
  payload: string;
  summary: string;
  amountMinor: number | null;
}

/** A person's name for lists: first and last name, or else the e-mail. */
const displayName = (alias: string) =>
  `coalesce(nullif(trim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, '')), ''), ${alias}.email)`;

export const APPROVAL_REQUEST_SELECT = `SELECT a.id, a.kind, a.status, a.payload, a.summary,
    a.amount_minor AS amountMinor, a.currency, a.requested_by AS requestedBy, ${
  displayName("rq")
} AS requestedByName, rq.email AS requestedByEmail,
    a.request_reason AS requestReason, a.requested_at AS requestedAt, a.expires_at AS expiresAt,
    a.decided_by AS decidedBy, ${displayName("dc")} AS decidedByName, a.decided_at AS decidedAt,
    dc.email AS decidedByEmail,
    a.decision_reason AS decisionReason, a.executed_by AS executedBy, ${displayName("ex")} AS executedByName,
    ex.email AS executedByEmail,
    a.result_entity_type AS resultEntityType, a.result_entity_id AS resultEntityId
  FROM approval_requests a
  JOIN users rq ON rq.id = a.requested_by
  LEFT JOIN users dc ON dc.id = a.decided_by
  LEFT JOIN users ex ON ex.id = a.executed_by`;

export function toApprovalDto(row: ApprovalRequestRow, now = new Date()): ApprovalRequestDto {
  return {
    id: row.id,
    kind: row.kind,
    status: statusAt(row.status, row.expiresAt, now),
    summary: JSON.parse(row.summary),
    amount: row.amountMinor === null ? null : formatMoney(BigInt(row.amountMinor)),
    currency: row.currency,
    requestedBy: row.requestedBy,
    requestedByName: row.requestedByName,
    requestedByEmail: row.requestedByEmail,
    requestReason: row.requestReason,
    requestedAt: row.requestedAt,
    expiresAt: row.expiresAt,
    decidedBy: row.decidedBy,
    decidedByName: row.decidedBy === null ? null : row.decidedByName,
    decidedByEmail: row.decidedBy === null ? null : row.decidedByEmail,
    decidedAt: row.decidedAt,
    decisionReason: row.decisionReason,
    executedBy: row.executedBy,
    executedByName: row.executedBy === null ? null : row.executedByName,
    executedByEmail: row.executedBy === null ? null : row.executedByEmail,
    resultEntityType: row.resultEntityType,
    resultEntityId: row.resultEntityId,
  };
}

/**
 * A request waits in the queue while pending and not yet expired (`a` is approval_requests): the
 * queue's "pending" filter, its badge and the dashboard's awaiting-approval alert all count by this.
 */
export function awaitingDecision(nowIso: string): SQL {
  return sql`a.status = 'pending' AND a.expires_at > ${nowIso}`;
}

/** How many requests wait in the approvals queue at `now`. */
export async function countAwaitingDecision(db: Queryable, now: Date): Promise<number> {
  const [row] = await db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM approval_requests a WHERE ${awaitingDecision(now.toISOString())}`,
  );
  return row?.n ?? 0;
}

export async function thresholdMinorFor(db: Queryable, currency: string): Promise<bigint> {
  const [row] = await db.all<{ thresholdMinor: number }>(
    sql`SELECT threshold_minor AS thresholdMinor FROM approval_thresholds WHERE currency = ${currency}`,
  );
  return row ? BigInt(row.thresholdMinor) : DEFAULT_THRESHOLD_MINOR;
}

export async function needsApproval(db: Queryable, currency: string, amountMinor: bigint): Promise<boolean> {
  return amountNeedsApproval(amountMinor, await thresholdMinorFor(db, currency));
}

const reasonBody = z.object({
  requestReason: z.string().trim().max(MAX_REASON_LENGTH).optional(),
});

/**
 * The maker's reason, `requestReason` in the JSON body beside the action's own fields (each
 * feature's schema leaves it alone); `fallback` is a reason the action already carries.
 */
export async function requestReasonOf(c: Context, fallback: string | null = null): Promise<string | null> {
  const body = await c.req.json().catch(() => ({}));
  const parsed = reasonBody.safeParse(body ?? {});
  if (!parsed.success) {
    throw new AppError("validation", `requestReason: at most ${MAX_REASON_LENGTH} characters`, {
      fields: { requestReason: `At most ${MAX_REASON_LENGTH} characters` },
    });
  }
  return parsed.data.requestReason || fallback?.trim() || null;
}

const REASON_REQUIRED = "Give a reason: this needs the approval of a second person";

/** Rehearses the action, then files the request with its audit row; the maker's answer is 202 with the request (`pendingBody`). */
export async function fileApprovalRequest(
  db: Database,
  actor: Actor,
  draft: RequestDraft,
  reason: string | null,
): Promise<ApprovalRequestDto> {
  const id = crypto.randomUUID();
  await db.transaction(async (tx) => {
    await rehearse(db, tx, draft.rehearse);
    // After the rehearsal: a request that could never execute is refused for that, not for its reason.
    if (!reason) {
      throw new AppError("validation", REASON_REQUIRED, {
        field: "requestReason",
        fields: { requestReason: REASON_REQUIRED },
      });
    }
    const [policy] = await tx.all<{ ttl: number }>(
      sql`SELECT request_ttl_minutes AS ttl FROM approval_policy WHERE id = 1`,
    );
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (policy?.ttl ?? DEFAULT_REQUEST_TTL_MINUTES) * 60_000);
    await tx.run(
      sql`INSERT INTO approval_requests (id, kind, status, payload, summary, amount_minor, currency,
        requested_by, request_reason, requested_at, expires_at)
      VALUES (${id}, ${draft.kind}, 'pending', ${JSON.stringify(draft.payload)}, ${
        JSON.stringify(draft.summary)
      },
        ${draft.amountMinor === null ? null : Number(draft.amountMinor)}, ${draft.currency}, ${actor.userId},
        ${reason}, ${now.toISOString()}, ${expiresAt.toISOString()})`,
    );
    await recordAudit(tx, actor, {
      entityType: APPROVAL_AUDIT_ENTITY,
      entityId: id,
      action: "request",
      changes: {
        after: { kind: draft.kind, summary: draft.summary, reason, expiresAt: expiresAt.toISOString() },
      },
    });
    await announceRequest(tx, id, draft, actor.userId);
  });
  const row = await db.statements.get<ApprovalRequestRow>(`${APPROVAL_REQUEST_SELECT} WHERE a.id = ?`, [id]);
  if (!row) throw new Error(`Approval request ${id} vanished after its commit`);
  return toApprovalDto(row);
}

/** The SPA screen where requests are decided and followed. */
export const APPROVALS_LINK = "/approvals";

/** "Manual sweep of $1,250.00", "New user": what a request is, in a notification's words. */
export function requestTitle(kind: ApprovalKind, amountMinor: bigint | number | null, currency: string | null): string {
  const label = APPROVAL_KIND_LABELS[kind];
  if (amountMinor === null) return label;
  // A run over several currencies has no one currency: its total is a bare figure.
  const amount = currency === null ? formatMoney(BigInt(amountMinor)) : formatCurrencyEnUs(BigInt(amountMinor), currency);
  return `${label} of ${amount}`;
}

/** Tells whoever may decide the new request (by its scope), never the requester, that it waits for them. */
async function announceRequest(tx: Tx, id: string, draft: RequestDraft, requesterId: string): Promise<void> {
  const [requester] = await tx.all<{ name: string }>(
    sql`SELECT ${sql.raw(displayName("u"))} AS name FROM users u WHERE u.id = ${requesterId}`,
  );
  await publishEvent(tx, {
    kind: "approval_requested",
    subjectType: APPROVAL_AUDIT_ENTITY,
    subjectId: id,
    summary: `${requestTitle(draft.kind, draft.amountMinor, draft.currency)} requested by ${
      requester?.name ?? "a colleague"
    } waits for a decision`,
    link: APPROVALS_LINK,
    data: { approvalKind: draft.kind, requestedBy: requesterId },
    audience: { roles: [DECIDING_ROLE[scopeOfKind(draft.kind)]], exclude: requesterId },
  });
}

const PENDING_MESSAGES: Readonly<Record<"money" | "administration", string>> = {
  money: "Submitted for approval: a second person with the approver role must approve it",
  administration: "Submitted for approval: dual control is in force, so a second administrator must approve it",
};

/** The body of a 202: nothing happened yet, the request waits for a second person. */
export function pendingBody(request: ApprovalRequestDto) {
  return {
    status: "pending_approval" as const,
    message: PENDING_MESSAGES[scopeOfKind(request.kind)],
    approvalRequest: request,
  };
}

/** Files the draft with the maker's reason and answers 202 with the pending request. */
export async function submitForApproval(
  c: Context<AppEnv>,
  deps: AppDeps,
  draft: RequestDraft,
  fallbackReason: string | null = null,
) {
  const reason = await requestReasonOf(c, fallbackReason);
  const request = await fileApprovalRequest(deps.db, actorOf(c, deps.config), draft, reason);
  return c.json(pendingBody(request), 202);
}

/**
 * A change to people or controls: while dual control is in force, a request (202) for a second
 * administrator; before that, done at once by the administrator alone (`alone` gets the origin that
 * marks it so, and that its transaction checks again).
 */
export async function administer(
  c: Context<AppEnv>,
  deps: AppDeps,
  request: () => RequestDraft | Promise<RequestDraft>,
  alone: (origin: GrantOrigin) => Promise<Response>,
): Promise<Response> {
  if ((await dualControlState(deps.db.read)).inForce) return await submitForApproval(c, deps, await request());
  return await alone(soleGrant(c.get("user").id));
}

/** An administration request moves no money; it is rehearsed as it will be granted, the approver still unknown. */
export function administrationDraft(
  kind: ApprovalKind,
  requester: Actor,
  content: { payload: unknown; summary: Record<string, unknown> },
  act: (db: Database, origin: GrantOrigin) => Promise<unknown>,
): RequestDraft {
  return {
    kind,
    ...content,
    amountMinor: null,
    currency: null,
    rehearse: (inner) => act(inner, requestedGrant(requester.userId)),
  };
}
