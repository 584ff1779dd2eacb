/**
 * Whether an action would execute at once or go to a second person, asked before the maker submits
 * (GET /api/approvals/preview). Each answer comes from the rule the action's own route applies: the
 * movement limits' figures and domain rules for sweeps and card funding, the opening-balance rule,
 * the always-controlled institution status change, dual control for administration. It writes
 * nothing; the action still decides for itself in its own transaction.
 */
import { z } from "zod";
import { CURRENCIES, FUNDING_SOURCES } from "../../../../db/schema.ts";
import { APPROVAL_KINDS, type ApprovalKind, openingBalanceNeedsApproval } from "../../../domain/approval.ts";
import { approvalGroundMessage } from "../../../domain/movement_limits.ts";
import { formatMoney, parseNonNegativeMoney } from "../../../domain/money.ts";
import type { AppDeps } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import { moneyAmount } from "../../http/validation.ts";
import { dualControlState } from "../../auth/role_grants.ts";
import { type AloneMovement, previewMovement } from "../ledger/movement_limits.ts";
import { CARD_CURRENCY, DEFAULT_FUNDING_SOURCE, FUNDING_SOURCE_ACCOUNTS } from "../cards/funding_sources.ts";
import { thresholdMinorFor } from "./four_eyes.ts";

/** The actions a preview answers for: every kind a maker submits (the automatic sweep has its own plan). */
const PREVIEW_ACTIONS = APPROVAL_KINDS.filter((kind) => kind !== "auto_sweep") as Exclude<ApprovalKind, "auto_sweep">[];
type PreviewAction = typeof PREVIEW_ACTIONS[number];
const MOVEMENT_ACTIONS: readonly PreviewAction[] = ["sweep", "card_issue", "card_distribute", "card_load"];

export const previewQuery = z.object({
  action: z.enum(PREVIEW_ACTIONS as [PreviewAction, ...PreviewAction[]]),
  amount: moneyAmount(parseNonNegativeMoney).optional(),
  currency: z.enum(CURRENCIES).optional(),
  /** A sweep's source account: the account the money leaves. */
  accountId: z.string().uuid("Invalid account id").optional(),
  /** A card's funding source: its account is the one the money leaves. */
  fundingSource: z.enum(FUNDING_SOURCES).optional(),
}).superRefine((query, ctx) => {
  if (MOVEMENT_ACTIONS.includes(query.action) || query.action === "opening_balance") {
    if (query.amount === undefined) ctx.addIssue({ code: "custom", path: ["amount"], message: "Required" });
  }
  if (query.action === "sweep" && query.accountId === undefined) {
    ctx.addIssue({ code: "custom", path: ["accountId"], message: "Required for a sweep: its source account" });
  }
});
export type PreviewQuery = z.output<typeof previewQuery>;

export interface ApprovalPreview {
  outcome: "execute" | "approval";
  /** The currency's approval threshold as a decimal string; null where no amount is weighed. */
  threshold: string | null;
  /** What the caller moved alone today in the currency, before this action; null where no amount is weighed. */
  makerTodayTotal: string | null;
  currency: string | null;
  /** The account the money leaves: its outflow today and its daily limit (null: none). */
  account: { accountNumber: string; outflowToday: string; dailyOutflowLimit: string | null } | null;
  /** Why it goes to a second person, one sentence per rule; null when it executes. */
  reason: string | null;
  reasons: string[];
}

const ALWAYS_CONTROLLED = "An institution's status change always needs a second person with the approver role";
const EDITION_CONTROLLED = "Publishing a directory edition always needs a second person with the approver role";
const OPENING_BALANCE = "An account opened with a balance other than 0.00 needs a second person's approval";
const DUAL_CONTROL = "Dual control is in force: a second administrator must approve this change";

function plain(outcome: ApprovalPreview["outcome"], reason: string | null, currency: string | null = null) {
  return {
    outcome,
    threshold: null,
    makerTodayTotal: null,
    currency,
    account: null,
    reason,
    reasons: reason ? [reason] : [],
  } satisfies ApprovalPreview;
}

/** The movement's source account: a sweep names it, a card's funding source maps to one. */
async function sourceAccount(deps: AppDeps, query: PreviewQuery): Promise<{ id: string; currency: string }> {
  if (query.action === "sweep") {
    const row = await deps.db.statements.get<{ id: string; currency: string }>(
      "SELECT id, currency FROM ledger_accounts WHERE id = ?",
      [query.accountId!],
    );
    if (!row) throw new AppError("not_found", "Source account not found", { field: "accountId" });
    return row;
  }
  const source = FUNDING_SOURCE_ACCOUNTS[query.fundingSource ?? DEFAULT_FUNDING_SOURCE];
  const row = await deps.db.statements.get<{ id: string }>(
    "SELECT id FROM ledger_accounts WHERE account_number = ?",
    [source.accountNumber],
  );
  if (!row) throw new AppError("not_found", `Funding source ${source.label} has no ledger account`);
  return { id: row.id, currency: CARD_CURRENCY };
}

async function previewOfMovement(deps: AppDeps, makerId: string, query: PreviewQuery): Promise<ApprovalPreview> {
  const account = await sourceAccount(deps, query);
  const movement: AloneMovement = {
    makerId,
    currency: account.currency,
    amountMinor: query.amount!,
    sourceAccountId: account.id,
    atMs: deps.clock.now(),
  };
  const preview = await previewMovement(deps.db.statements, movement);
  const reasons = preview.grounds.map(approvalGroundMessage);
  return {
    outcome: reasons.length > 0 ? "approval" : "execute",
    threshold: formatMoney(preview.thresholdMinor),
    makerTodayTotal: formatMoney(preview.movedTodayMinor),
    currency: account.currency,
    account: preview.account && {
      accountNumber: preview.account.accountNumber,
      outflowToday: formatMoney(preview.account.outflowTodayMinor),
      dailyOutflowLimit: preview.account.limitMinor === null ? null : formatMoney(preview.account.limitMinor),
    },
    reason: reasons.length > 0 ? reasons.join(". ") : null,
    reasons,
  };
}

async function previewOfOpeningBalance(deps: AppDeps, query: PreviewQuery): Promise<ApprovalPreview> {
  const currency = query.currency ?? "USD";
  const needs = openingBalanceNeedsApproval(query.amount!);
  return {
    ...plain(needs ? "approval" : "execute", needs ? OPENING_BALANCE : null, currency),
    threshold: formatMoney(await thresholdMinorFor(deps.db.read, currency)),
  };
}

/** What the action would meet if the caller submitted it now. */
export async function approvalPreview(deps: AppDeps, makerId: string, query: PreviewQuery): Promise<ApprovalPreview> {
  if (MOVEMENT_ACTIONS.includes(query.action)) return await previewOfMovement(deps, makerId, query);
  if (query.action === "opening_balance") return await previewOfOpeningBalance(deps, query);
  if (query.action === "institution_status" || query.action === "institution_change") {
    return plain("approval", ALWAYS_CONTROLLED);
  }
  if (query.action === "directory_edition") return plain("approval", EDITION_CONTROLLED);
  // What remains is administration: a request for a second administrator once dual control holds.
  const { inForce } = await dualControlState(deps.db.read);
  return plain(inForce ? "approval" : "execute", inForce ? DUAL_CONTROL : null);
}
