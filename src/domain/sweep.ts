/**
 * Planning of balance sweeps between ledger accounts, and the checks reconciliation uses.
 *
 * Planning is pure: it reads balances the caller has just re-read inside its transaction and
 * returns the balances to write, or a typed rejection. Every plan conserves money (what leaves
 * the source arrives at the target) and never drives a balance below zero or beyond
 * decimal(15,2); a plan violating that throws, because it would be a bug, not a user error.
 *
 * @module
 */

import { addMoney, formatMoney, isWithinMoneyRange, MAX_MONEY_MINOR, type Minor, subMoney } from "./money.ts";
import { type DomainError, err, ok, type Result } from "./result.ts";

export const ACCOUNT_TYPES = ["ledger", "liquid", "settlement", "reserve"] as const;
export type AccountType = typeof ACCOUNT_TYPES[number];

export const ACTIVE_ACCOUNT_STATUS = "active";

/** Source types the API accepts for a manual sweep. */
export const MANUAL_SWEEP_SOURCE_TYPES: readonly AccountType[] = [
  "ledger",
  "settlement",
  "reserve",
];
/** Target types the API accepts for a manual sweep. */
export const MANUAL_SWEEP_TARGET_TYPES: readonly AccountType[] = [
  "liquid",
  "settlement",
  "reserve",
];
/** The Manual Sweep dialog only offers ledger sources and liquid targets. */
export const SCREEN_SWEEP_SOURCE_TYPES: readonly AccountType[] = ["ledger"];
export const SCREEN_SWEEP_TARGET_TYPES: readonly AccountType[] = ["liquid"];
/** Automatic sweeps only move money into liquid accounts. */
export const AUTO_SWEEP_TARGET_TYPE: AccountType = "liquid";

export interface SweepAccount {
  id: string;
  accountType: AccountType;
  currency: string;
  accountStatus: string;
  currentBalanceMinor: Minor;
  availableBalanceMinor: Minor;
  sweepThresholdMinor: Minor | null;
  targetLiquidAccountId: string | null;
}

export interface SweepPlan {
  sourceId: string;
  targetId: string;
  amountMinor: Minor;
  sourceBalanceBefore: Minor;
  sourceBalanceAfter: Minor;
  targetBalanceBefore: Minor;
  targetBalanceAfter: Minor;
  sourceAvailableAfter: Minor;
  targetAvailableAfter: Minor;
}

export type SweepRejectionCode =
  | "invalid_amount"
  | "same_account"
  | "invalid_source_type"
  | "invalid_target_type"
  | "inactive_account"
  | "currency_mismatch"
  | "insufficient_funds"
  | "balance_limit_exceeded";

export interface SweepRejection extends DomainError {
  code: SweepRejectionCode;
}

export interface ManualSweepRequest {
  source: SweepAccount;
  target: SweepAccount;
  amountMinor: Minor;
  allowedSourceTypes?: readonly AccountType[];
  allowedTargetTypes?: readonly AccountType[];
}

/** Field names of the sweep request body, so the API can point at the offending input. */
const SOURCE_FIELD = "sourceAccountId";
const TARGET_FIELD = "targetAccountId";
const AMOUNT_FIELD = "sweepAmount";

type Refusal = { ok: false; error: SweepRejection };

function reject(
  code: SweepRejectionCode,
  message: string,
  field: string,
): Refusal {
  return { ok: false, error: { code, message, field } };
}

function assertAccountBalances(account: SweepAccount): void {
  for (const balance of [account.currentBalanceMinor, account.availableBalanceMinor]) {
    if (balance < 0n || !isWithinMoneyRange(balance)) {
      throw new RangeError(
        `Account ${account.id} holds a balance outside 0..${MAX_MONEY_MINOR}: ${balance}`,
      );
    }
  }
}

/**
 * What may leave an account without either of its balances going negative. Available never
 * exceeds current in a consistent store; taking the minimum keeps a plan safe even if it did.
 */
function spendableMinor(account: SweepAccount): Minor {
  return account.availableBalanceMinor < account.currentBalanceMinor
    ? account.availableBalanceMinor
    : account.currentBalanceMinor;
}

function isActive(account: SweepAccount): boolean {
  return account.accountStatus === ACTIVE_ACCOUNT_STATUS;
}

/** Throws unless the plan conserves money and leaves every balance within 0..MAX_MONEY_MINOR. */
export function assertSweepPlanInvariants(plan: SweepPlan): void {
  const failures: string[] = [];
  if (plan.amountMinor <= 0n) failures.push("amount is not positive");
  if (plan.sourceId === plan.targetId) failures.push("source and target are the same account");
  if (
    plan.sourceBalanceBefore + plan.targetBalanceBefore !==
      plan.sourceBalanceAfter + plan.targetBalanceAfter
  ) {
    failures.push("total balance before differs from total after");
  }
  if (plan.sourceBalanceBefore - plan.sourceBalanceAfter !== plan.amountMinor) {
    failures.push("source did not decrease by the amount");
  }
  const balances = [
    plan.sourceBalanceBefore,
    plan.sourceBalanceAfter,
    plan.targetBalanceBefore,
    plan.targetBalanceAfter,
    plan.sourceAvailableAfter,
    plan.targetAvailableAfter,
  ];
  if (balances.some((balance) => balance < 0n || balance > MAX_MONEY_MINOR)) {
    failures.push("a balance is outside 0..MAX_MONEY_MINOR");
  }
  if (failures.length > 0) {
    throw new Error(
      `Sweep plan ${plan.sourceId} -> ${plan.targetId} is invalid: ${failures.join("; ")}`,
    );
  }
}

function buildPlan(source: SweepAccount, target: SweepAccount, amountMinor: Minor): SweepPlan {
  const plan: SweepPlan = {
    sourceId: source.id,
    targetId: target.id,
    amountMinor,
    sourceBalanceBefore: source.currentBalanceMinor,
    sourceBalanceAfter: subMoney(source.currentBalanceMinor, amountMinor),
    targetBalanceBefore: target.currentBalanceMinor,
    targetBalanceAfter: addMoney(target.currentBalanceMinor, amountMinor),
    sourceAvailableAfter: subMoney(source.availableBalanceMinor, amountMinor),
    targetAvailableAfter: addMoney(target.availableBalanceMinor, amountMinor),
  };
  assertSweepPlanInvariants(plan);
  return plan;
}

function wouldExceedLimit(account: SweepAccount, amountMinor: Minor): boolean {
  return account.currentBalanceMinor + amountMinor > MAX_MONEY_MINOR ||
    account.availableBalanceMinor + amountMinor > MAX_MONEY_MINOR;
}

function describeTypes(types: readonly AccountType[]): string {
  return types.join(", ");
}

/**
 * Validates a manual sweep and computes the balances it leaves. The checks run in this order
 * and the first failure is returned: amount, same account, source type, target type, source
 * active, target active, currency, funds, target balance limit.
 *
 * By default the API's rule applies (sources {@linkcode MANUAL_SWEEP_SOURCE_TYPES}, targets
 * {@linkcode MANUAL_SWEEP_TARGET_TYPES}); pass the SCREEN_* constants for the dialog's stricter rule.
 */
export function planManualSweep(request: ManualSweepRequest): Result<SweepPlan, SweepRejection> {
  const { source, target, amountMinor } = request;
  assertAccountBalances(source);
  assertAccountBalances(target);

  if (amountMinor <= 0n) {
    return reject("invalid_amount", "Sweep amount must be greater than 0.00", AMOUNT_FIELD);
  }
  const refusal = accountsRefusal(request) ?? fundsRefusal(source, target, amountMinor);
  return refusal ?? ok(buildPlan(source, target, amountMinor));
}

/** The two sides of a sweep, as a refusal names them. */
interface SweepSide {
  label: "Source" | "Target";
  typeCode: "invalid_source_type" | "invalid_target_type";
  /** Completes "… account type ledger …" when the type is not allowed on this side. */
  typeRefusal: string;
  field: string;
}

const SOURCE_SIDE: SweepSide = {
  label: "Source",
  typeCode: "invalid_source_type",
  typeRefusal: "cannot be swept from",
  field: SOURCE_FIELD,
};
const TARGET_SIDE: SweepSide = {
  label: "Target",
  typeCode: "invalid_target_type",
  typeRefusal: "cannot receive a sweep",
  field: TARGET_FIELD,
};

/** Whether these two accounts may take part in a manual sweep: distinct, allowed types, active, one currency. */
function accountsRefusal(request: ManualSweepRequest): Refusal | null {
  const {
    source,
    target,
    allowedSourceTypes = MANUAL_SWEEP_SOURCE_TYPES,
    allowedTargetTypes = MANUAL_SWEEP_TARGET_TYPES,
  } = request;
  if (source.id === target.id) {
    return reject("same_account", "Source and target must be different accounts", TARGET_FIELD);
  }
  const refusal = typeRefusal(SOURCE_SIDE, source, allowedSourceTypes) ??
    typeRefusal(TARGET_SIDE, target, allowedTargetTypes) ?? inactiveRefusal(SOURCE_SIDE, source) ??
    inactiveRefusal(TARGET_SIDE, target);
  if (refusal !== null) return refusal;
  if (source.currency !== target.currency) {
    return reject(
      "currency_mismatch",
      `Currency mismatch: source is in ${source.currency}, target is in ${target.currency}`,
      TARGET_FIELD,
    );
  }
  return null;
}

function typeRefusal(
  side: SweepSide,
  account: SweepAccount,
  allowed: readonly AccountType[],
): Refusal | null {
  if (allowed.includes(account.accountType)) return null;
  return reject(
    side.typeCode,
    `${side.label} account type ${account.accountType} ${side.typeRefusal}; allowed: ${
      describeTypes(allowed)
    }`,
    side.field,
  );
}

function inactiveRefusal(side: SweepSide, account: SweepAccount): Refusal | null {
  if (isActive(account)) return null;
  return reject(
    "inactive_account",
    `${side.label} account is not active (status: ${account.accountStatus})`,
    side.field,
  );
}

/** Whether the source can spend the amount and the target can hold it. */
function fundsRefusal(source: SweepAccount, target: SweepAccount, amountMinor: Minor): Refusal | null {
  const spendable = spendableMinor(source);
  if (amountMinor > spendable) {
    return reject(
      "insufficient_funds",
      `Insufficient funds: source available balance is ${
        formatMoney(spendable)
      } ${source.currency}, requested ${formatMoney(amountMinor)}`,
      AMOUNT_FIELD,
    );
  }
  if (wouldExceedLimit(target, amountMinor)) {
    return reject(
      "balance_limit_exceeded",
      `Target balance would exceed the maximum of ${formatMoney(MAX_MONEY_MINOR)} ${target.currency}`,
      AMOUNT_FIELD,
    );
  }
  return null;
}

/** Returns the accounts with the plan's after-balances applied; other accounts are returned as they were. */
export function applySweepPlan(accounts: readonly SweepAccount[], plan: SweepPlan): SweepAccount[] {
  return accounts.map((account) => {
    if (account.id === plan.sourceId) {
      return {
        ...account,
        currentBalanceMinor: plan.sourceBalanceAfter,
        availableBalanceMinor: plan.sourceAvailableAfter,
      };
    }
    if (account.id === plan.targetId) {
      return {
        ...account,
        currentBalanceMinor: plan.targetBalanceAfter,
        availableBalanceMinor: plan.targetAvailableAfter,
      };
    }
    return account;
  });
}

/** Plans one move of a run and applies it to the run's balances, so the next move sees them. */
function bookInRun(
  byId: Map<string, SweepAccount>,
  source: SweepAccount,
  target: SweepAccount,
  amountMinor: Minor,
): SweepPlan {
  const plan = buildPlan(source, target, amountMinor);
  for (const updated of applySweepPlan([source, target], plan)) byId.set(updated.id, updated);
  return plan;
}

/**
 * Plans one automatic sweep run. In one pass over `accounts`, in the order given (callers pass a
 * stable order, e.g. by account number), each account is considered once against balances
 * already updated by the plans before it. An account sweeps when it is active, has a threshold
 * and a target, and its current balance exceeds the threshold; it sweeps the excess
 * (current - threshold), capped at what it can spend, so a partly unavailable balance is never
 * overdrawn and the remainder waits for a later run.
 *
 * An account is skipped, not reported, when its target is missing from `accounts`, is itself, is
 * inactive, is not liquid, has another currency, or would exceed decimal(15,2). In a chain A→B→C,
 * money A sweeps into B moves on to C in the same run only if B comes after A in the order.
 */
export function planAutoSweeps(accounts: readonly SweepAccount[]): SweepPlan[] {
  const byId = new Map<string, SweepAccount>();
  for (const account of accounts) {
    if (byId.has(account.id)) {
      throw new Error(`Account ${account.id} appears twice in an auto-sweep run`);
    }
    assertAccountBalances(account);
    byId.set(account.id, account);
  }

  const plans: SweepPlan[] = [];
  for (const { id } of accounts) {
    const source = byId.get(id)!;
    if (
      !isActive(source) || source.sweepThresholdMinor === null ||
      source.targetLiquidAccountId === null
    ) continue;
    const target = byId.get(source.targetLiquidAccountId);
    if (
      target === undefined || target.id === source.id || !isActive(target) ||
      target.accountType !== AUTO_SWEEP_TARGET_TYPE || target.currency !== source.currency
    ) continue;

    const excess = source.currentBalanceMinor - source.sweepThresholdMinor;
    const spendable = spendableMinor(source);
    const amountMinor = excess < spendable ? excess : spendable;
    if (amountMinor <= 0n || wouldExceedLimit(target, amountMinor)) continue;

    plans.push(bookInRun(byId, source, target, amountMinor));
  }
  return plans;
}

/** One move of an automatic run as its approver saw it. */
export interface ApprovedAutoSweepMove {
  sourceId: string;
  targetId: string;
  amountMinor: Minor;
}

/**
 * The approved moves of an automatic run, planned again on the balances of the moment of approval:
 * each source must still sweep to the same target and hold at least the approved amount above its
 * threshold, and moves exactly that amount, so an approval never moves more than the approver saw
 * nor takes a source below its threshold. Null when any move no longer holds: the run is refused
 * whole.
 */
export function planApprovedAutoSweeps(
  accounts: readonly SweepAccount[],
  approved: readonly ApprovedAutoSweepMove[],
): SweepPlan[] | null {
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const plans: SweepPlan[] = [];
  for (const move of approved) {
    const source = byId.get(move.sourceId);
    const target = byId.get(move.targetId);
    if (source === undefined || target === undefined || move.amountMinor <= 0n) return null;
    const now = planAutoSweeps([source, target]).find((plan) => plan.sourceId === source.id);
    if (now === undefined || now.targetId !== target.id || now.amountMinor < move.amountMinor) return null;
    plans.push(bookInRun(byId, source, target, move.amountMinor));
  }
  return plans;
}

/** A sweep as recorded in balance_sweeps, in minor units. */
export interface RecordedSweep {
  id: string;
  sourceAccountId: string;
  targetAccountId: string;
  amountMinor: Minor;
  sourceBalanceBefore: Minor;
  sourceBalanceAfter: Minor;
  targetBalanceBefore: Minor;
  targetBalanceAfter: Minor;
}

/**
 * One movement of one account's current balance. Kept independent of sweeps so other
 * recorded movements with before/after balances can join the same chain.
 */
export interface BalanceChainEntry {
  id: string;
  direction: "in" | "out";
  amountMinor: Minor;
  balanceBeforeMinor: Minor;
  balanceAfterMinor: Minor;
}

/**
 * The account's side of each sweep it took part in, keeping the caller's order (execution
 * order). Throws on a sweep from an account to itself, which planning never produces.
 */
export function chainEntriesForAccount(
  accountId: string,
  sweeps: readonly RecordedSweep[],
): BalanceChainEntry[] {
  const entries: BalanceChainEntry[] = [];
  for (const sweep of sweeps) {
    if (sweep.sourceAccountId === sweep.targetAccountId) {
      throw new Error(
        `Sweep ${sweep.id} moves money from account ${sweep.sourceAccountId} to itself`,
      );
    }
    if (sweep.sourceAccountId === accountId) {
      entries.push({
        id: sweep.id,
        direction: "out",
        amountMinor: sweep.amountMinor,
        balanceBeforeMinor: sweep.sourceBalanceBefore,
        balanceAfterMinor: sweep.sourceBalanceAfter,
      });
    } else if (sweep.targetAccountId === accountId) {
      entries.push({
        id: sweep.id,
        direction: "in",
        amountMinor: sweep.amountMinor,
        balanceBeforeMinor: sweep.targetBalanceBefore,
        balanceAfterMinor: sweep.targetBalanceAfter,
      });
    }
  }
  return entries;
}

export type BalanceChainBreakCode =
  | "chain_break"
  | "amount_mismatch"
  | "negative_balance"
  | "current_balance_mismatch";

export interface BalanceChainBreak extends DomainError {
  code: BalanceChainBreakCode;
  /** Index of the offending entry, or the number of entries when the final balance is wrong. */
  index: number;
  /** Id of the offending entry, or null when the final balance is wrong. */
  entryId: string | null;
  expectedMinor: Minor;
  actualMinor: Minor;
}

export interface BalanceChainSummary {
  entryCount: number;
  totalInMinor: Minor;
  totalOutMinor: Minor;
}

/**
 * Checks that an account's recorded movements form an unbroken chain from its opening balance
 * to its current balance: each entry starts where the previous ended, moves exactly its amount
 * in its direction, never goes negative, and the last one ends at the current balance. Hence
 * current = opening + total in - total out. Returns the first break found.
 */
export function verifyBalanceChain(
  entries: readonly BalanceChainEntry[],
  openingBalanceMinor: Minor,
  currentBalanceMinor: Minor,
): Result<BalanceChainSummary, BalanceChainBreak> {
  let balance = openingBalanceMinor;
  let totalInMinor = 0n;
  let totalOutMinor = 0n;
  for (const [index, entry] of entries.entries()) {
    const movementBreak = checkMovement(entry, index, balance);
    if (movementBreak !== null) return movementBreak;
    balance = entry.balanceAfterMinor;
    if (entry.direction === "in") totalInMinor += entry.amountMinor;
    else totalOutMinor += entry.amountMinor;
  }
  if (balance !== currentBalanceMinor) {
    return chainBroken(
      "current_balance_mismatch",
      entries.length,
      null,
      balance,
      currentBalanceMinor,
      `Current balance is ${formatMoney(currentBalanceMinor)}, but the recorded movements end at ${
        formatMoney(balance)
      }`,
    );
  }
  return ok({ entryCount: entries.length, totalInMinor, totalOutMinor });
}

type ChainBroken = { ok: false; error: BalanceChainBreak };

function chainBroken(
  code: BalanceChainBreakCode,
  index: number,
  entryId: string | null,
  expectedMinor: Minor,
  actualMinor: Minor,
  message: string,
): ChainBroken {
  return { ok: false, error: { code, message, index, entryId, expectedMinor, actualMinor } };
}

/** One movement against the balance the previous one left: chained, moving its amount, never negative. */
function checkMovement(entry: BalanceChainEntry, index: number, balance: Minor): ChainBroken | null {
  if (entry.balanceBeforeMinor !== balance) {
    return chainBroken(
      "chain_break",
      index,
      entry.id,
      balance,
      entry.balanceBeforeMinor,
      `Movement ${entry.id} starts at ${
        formatMoney(entry.balanceBeforeMinor)
      }, but the previous balance was ${formatMoney(balance)}`,
    );
  }
  const expectedAfter = entry.direction === "in" ? balance + entry.amountMinor : balance - entry.amountMinor;
  if (entry.amountMinor <= 0n || entry.balanceAfterMinor !== expectedAfter) {
    return chainBroken(
      "amount_mismatch",
      index,
      entry.id,
      expectedAfter,
      entry.balanceAfterMinor,
      `Movement ${entry.id} of ${formatMoney(entry.amountMinor)} ${entry.direction} ends at ${
        formatMoney(entry.balanceAfterMinor)
      }, expected ${formatMoney(expectedAfter)}`,
    );
  }
  if (entry.balanceAfterMinor < 0n) {
    return chainBroken(
      "negative_balance",
      index,
      entry.id,
      0n,
      entry.balanceAfterMinor,
      `Movement ${entry.id} leaves a negative balance of ${formatMoney(entry.balanceAfterMinor)}`,
    );
  }
  return null;
}

/** Sum of current balances per currency; sums may exceed decimal(15,2), so plain bigint addition. */
export function totalsByCurrency(
  accounts: readonly Pick<SweepAccount, "currency" | "currentBalanceMinor">[],
): Map<string, Minor> {
  const totals = new Map<string, Minor>();
  for (const { currency, currentBalanceMinor } of accounts) {
    totals.set(currency, (totals.get(currency) ?? 0n) + currentBalanceMinor);
  }
  return totals;
}

/**
 * Compares per-currency totals of two snapshots of the same accounts (e.g. opening balances and
 * current balances when only sweeps have run). Returns the first currency whose total differs.
 */
export function checkConservation(
  before: readonly Pick<SweepAccount, "currency" | "currentBalanceMinor">[],
  after: readonly Pick<SweepAccount, "currency" | "currentBalanceMinor">[],
): Result<Map<string, Minor>> {
  const totalsBefore = totalsByCurrency(before);
  const totalsAfter = totalsByCurrency(after);
  const currencies = new Set([...totalsBefore.keys(), ...totalsAfter.keys()]);
  for (const currency of [...currencies].sort()) {
    const totalBefore = totalsBefore.get(currency) ?? 0n;
    const totalAfter = totalsAfter.get(currency) ?? 0n;
    if (totalBefore !== totalAfter) {
      return err(
        "conservation_violated",
        `Total ${currency} balance changed from ${formatMoney(totalBefore)} to ${formatMoney(totalAfter)}`,
      );
    }
  }
  return ok(totalsAfter);
}
