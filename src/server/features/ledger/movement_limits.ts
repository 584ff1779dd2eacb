/**
 * Cumulative four-eyes limits, in the movement's own transaction. A maker's movement executed
 * alone raises the maker's day total (per currency) and its source account's day outflow with
 * guarded UPSERTs, each of which refuses in SQL when the total would go above its bound (the
 * currency's approval threshold, the account's daily outflow limit). A refusal throws
 * `ApprovalRequired`, the transaction rolls back with the movement, and the route files the
 * movement for a second person instead. Because the decision is the write itself, two movements
 * in parallel can never both pass on a total each read before the other committed.
 *
 * Movements a second person approved (and their rehearsals at filing) are neither counted nor
 * limited: they were checked.
 */
import {
  type AccountOutflow,
  accountOutflowGround,
  type ApprovalGround,
  approvalGroundMessage,
  makerDayGround,
  utcDayKey,
} from "../../../domain/movement_limits.ts";
import { DEFAULT_THRESHOLD_MINOR } from "../../../domain/approval.ts";
import type { Actor } from "../../audit/trail.ts";
import { type Database, statementsOf, type Tx } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import type { Answer } from "../../http/idempotency.ts";
import {
  type ApprovalRequestDto,
  fileApprovalRequest,
  pendingBody,
  type RequestDraft,
} from "../approvals/four_eyes.ts";

/**
 * Who answers for a movement: its maker alone (counted, and refused above the limits), or a second
 * person (executed at approval, or rehearsed at filing for that).
 */
export type MovementControl = "alone" | "second_person";

/** The typed signal of a movement that must go to a second person; nothing it wrote is kept. */
export class ApprovalRequired extends Error {
  constructor(readonly grounds: readonly ApprovalGround[]) {
    super("This movement needs the approval of a second person");
    this.name = "ApprovalRequired";
  }
}

export interface AloneMovement {
  makerId: string;
  currency: string;
  amountMinor: bigint;
  /** The account the money leaves. */
  sourceAccountId: string;
  /**
   * When it is made, by the app's clock (the primary's on a replicated node: topology/clock.ts): the
   * UTC day whose totals count it is then the same whichever node's clock runs fast.
   */
  atMs: number;
}

/** The currency's threshold as the SQL reads it: the administrator's, else the default. */
const THRESHOLD_SQL = `coalesce((SELECT threshold_minor FROM approval_thresholds WHERE currency = ?), ?)`;

/** Adds the amount to the maker's day total unless that goes above the threshold; a row back means counted. */
const COUNT_MAKER_SQL = `INSERT INTO maker_daily_totals (maker_id, currency, day, moved_minor)
  SELECT ?, ?, ?, ? WHERE ? <= ${THRESHOLD_SQL}
  ON CONFLICT (maker_id, currency, day) DO UPDATE SET moved_minor = moved_minor + excluded.moved_minor
  WHERE maker_daily_totals.moved_minor + excluded.moved_minor <= ${THRESHOLD_SQL}
  RETURNING moved_minor AS movedMinor`;

/**
 * Adds the amount to the account's day outflow unless that goes above its limit (a NULL limit
 * compares to nothing, so an account without one always counts); a row back means counted.
 */
const COUNT_OUTFLOW_SQL = `INSERT INTO account_daily_outflows (account_id, day, outflow_minor)
  SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts WHERE id = ? AND daily_outflow_limit_minor < ?)
  ON CONFLICT (account_id, day) DO UPDATE SET outflow_minor = outflow_minor + excluded.outflow_minor
  WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts WHERE id = excluded.account_id
    AND daily_outflow_limit_minor < account_daily_outflows.outflow_minor + excluded.outflow_minor)
  RETURNING outflow_minor AS outflowMinor`;

async function countForMaker(statements: Statements, movement: AloneMovement, day: string): Promise<boolean> {
  const amount = Number(movement.amountMinor);
  const defaultThreshold = Number(DEFAULT_THRESHOLD_MINOR);
  const counted = await statements.get(COUNT_MAKER_SQL, [
    movement.makerId,
    movement.currency,
    day,
    amount,
    amount,
    movement.currency,
    defaultThreshold,
    movement.currency,
    defaultThreshold,
  ]);
  return counted !== undefined;
}

async function countForAccount(
  statements: Statements,
  movement: AloneMovement,
  day: string,
): Promise<boolean> {
  const amount = Number(movement.amountMinor);
  const counted = await statements.get(COUNT_OUTFLOW_SQL, [
    movement.sourceAccountId,
    day,
    amount,
    movement.sourceAccountId,
    amount,
  ]);
  return counted !== undefined;
}

/** What the maker moved alone today in the currency, and the currency's threshold, as `statements` read them. */
async function makerFigures(
  statements: Statements,
  makerId: string,
  currency: string,
  day: string,
): Promise<{ movedTodayMinor: bigint; thresholdMinor: bigint }> {
  const row = await statements.get<{ movedMinor: number | null; thresholdMinor: number }>(
    `SELECT (SELECT moved_minor FROM maker_daily_totals WHERE maker_id = ? AND currency = ? AND day = ?) AS movedMinor,
      ${THRESHOLD_SQL} AS thresholdMinor`,
    [makerId, currency, day, currency, Number(DEFAULT_THRESHOLD_MINOR)],
  );
  return {
    movedTodayMinor: BigInt(row?.movedMinor ?? 0),
    thresholdMinor: BigInt(row?.thresholdMinor ?? DEFAULT_THRESHOLD_MINOR),
  };
}

/** What left the account alone today and its daily outflow limit; null when there is no such account. */
async function accountFigures(
  statements: Statements,
  accountId: string,
  day: string,
): Promise<AccountOutflow | null> {
  const row = await statements.get<
    { accountNumber: string; currency: string; limitMinor: number | null; outflowMinor: number | null }
  >(
    `SELECT account_number AS accountNumber, currency, daily_outflow_limit_minor AS limitMinor,
      (SELECT outflow_minor FROM account_daily_outflows WHERE account_id = ? AND day = ?) AS outflowMinor
    FROM ledger_accounts WHERE id = ?`,
    [accountId, day, accountId],
  );
  if (!row) return null;
  return {
    accountNumber: row.accountNumber,
    currency: row.currency,
    outflowTodayMinor: BigInt(row.outflowMinor ?? 0),
    limitMinor: row.limitMinor === null ? null : BigInt(row.limitMinor),
  };
}

/** The maker's refusal explained from the figures as they stand in the transaction. */
async function makerGround(statements: Statements, movement: AloneMovement, day: string): Promise<ApprovalGround> {
  const { movedTodayMinor, thresholdMinor } = await makerFigures(statements, movement.makerId, movement.currency, day);
  const ground = makerDayGround(movement.currency, movedTodayMinor, movement.amountMinor, thresholdMinor);
  if (!ground) throw new Error("The maker's day total was refused in SQL but is within the threshold");
  return ground;
}

async function accountGround(statements: Statements, movement: AloneMovement, day: string): Promise<ApprovalGround> {
  const account = await accountFigures(statements, movement.sourceAccountId, day);
  const ground = account && accountOutflowGround({ ...account, currency: movement.currency }, movement.amountMinor);
  if (!ground) throw new Error("The account's day outflow was refused in SQL but is within its limit");
  return ground;
}

/** What a movement would meet if made now: the figures it is weighed against and the rules it would break. */
export interface MovementPreview {
  thresholdMinor: bigint;
  movedTodayMinor: bigint;
  account: AccountOutflow | null;
  grounds: ApprovalGround[];
}

/**
 * Weighs a movement its maker would make alone against today's figures, writing nothing: the same
 * figures and the same domain rules that explain the movement's own refusal, so a preview and the
 * movement agree unless another movement lands in between (the movement still decides for itself).
 */
export async function previewMovement(statements: Statements, movement: AloneMovement): Promise<MovementPreview> {
  const day = utcDayKey(new Date(movement.atMs));
  const { movedTodayMinor, thresholdMinor } = await makerFigures(statements, movement.makerId, movement.currency, day);
  const account = await accountFigures(statements, movement.sourceAccountId, day);
  const grounds = [
    makerDayGround(movement.currency, movedTodayMinor, movement.amountMinor, thresholdMinor),
    account && accountOutflowGround({ ...account, currency: movement.currency }, movement.amountMinor),
  ].filter((ground): ground is ApprovalGround => ground !== null);
  return { thresholdMinor, movedTodayMinor, account, grounds };
}

/**
 * Counts a movement its maker makes alone, in `tx` before the movement itself: throws
 * `ApprovalRequired` with every rule it breaks (the caller's transaction then rolls back what was
 * counted), or returns with both totals raised. A second person's movement is not counted.
 */
export async function countMovement(
  tx: Tx,
  control: MovementControl,
  movement: AloneMovement,
): Promise<void> {
  if (control === "second_person") return;
  const statements = statementsOf(tx);
  const day = utcDayKey(new Date(movement.atMs));
  const grounds: ApprovalGround[] = [];
  if (!await countForMaker(statements, movement, day)) {
    grounds.push(await makerGround(statements, movement, day));
  }
  if (!await countForAccount(statements, movement, day)) {
    grounds.push(await accountGround(statements, movement, day));
  }
  if (grounds.length > 0) throw new ApprovalRequired(grounds);
}

/** The 202 of a movement the limits sent to a second person: the usual pending body, saying why. */
export function pendingOverLimitBody(request: ApprovalRequestDto, grounds: readonly ApprovalGround[]) {
  const body = pendingBody(request);
  const reasons = grounds.map(approvalGroundMessage);
  return { ...body, message: `${reasons.join(". ")}. ${body.message}`, reasons };
}

/** Files the movement for a second person on `db` with the maker's reason: the 202 saying why. */
export async function fileOverLimit(
  db: Database,
  actor: Actor,
  draft: RequestDraft,
  reason: string | null,
  grounds: readonly ApprovalGround[],
): Promise<Answer> {
  return {
    status: 202,
    body: pendingOverLimitBody(await fileApprovalRequest(db, actor, draft, reason), grounds),
  };
}

/**
 * A movement its maker makes alone: `move`'s answer, or, when the limits refuse it
 * (`ApprovalRequired`, what `move` wrote in its own transaction rolled back), `file`'s 202.
 */
export async function moveOrFile(
  move: () => Promise<Answer>,
  file: (grounds: readonly ApprovalGround[]) => Promise<Answer>,
): Promise<Answer> {
  try {
    return await move();
  } catch (error) {
    if (!(error instanceof ApprovalRequired)) throw error;
    return await file(error.grounds);
  }
}
