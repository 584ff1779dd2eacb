/**
 * Cumulative four-eyes limits. What a maker moves alone (without a second person) counts per
 * currency per UTC day: a movement that takes that day total strictly above the currency's
 * approval threshold needs a second person, however it was split. An account may also carry a
 * daily outflow limit: a movement that takes what left the account alone that UTC day above it
 * needs a second person too, whoever makes it.
 *
 * @module
 */
import { amountNeedsApproval } from "./approval.ts";
import { formatCurrencyEnUs, formatMoney, groupDigits, type Minor } from "./money.ts";

/** Characters of an ISO instant that make its UTC calendar day: "2026-03-09". */
const DAY_KEY_LENGTH = 10;

/** The UTC calendar day of an instant, as the day totals are keyed: "2026-03-09". */
export function utcDayKey(at: Date): string {
  return at.toISOString().slice(0, DAY_KEY_LENGTH);
}

/** Whether `amountMinor` on top of what the maker already moved alone today goes above the threshold. */
export function dayTotalNeedsApproval(
  movedTodayMinor: Minor,
  amountMinor: Minor,
  thresholdMinor: Minor,
): boolean {
  return amountNeedsApproval(movedTodayMinor + amountMinor, thresholdMinor);
}

/**
 * Whether `amountMinor` on top of what already left the account alone today goes above its daily
 * outflow limit; an account without a limit (null) never needs approval for that reason. At the
 * limit exactly is still within it, as at the threshold.
 */
export function outflowNeedsApproval(
  outflowTodayMinor: Minor,
  amountMinor: Minor,
  limitMinor: Minor | null,
): boolean {
  return limitMinor !== null && outflowTodayMinor + amountMinor > limitMinor;
}

/** Why a movement went to a second person instead of executing at once. */
export type ApprovalGround =
  | {
    rule: "maker_day_total";
    currency: string;
    /** What the maker moved alone today before this movement. */
    movedTodayMinor: Minor;
    amountMinor: Minor;
    thresholdMinor: Minor;
  }
  | {
    rule: "account_daily_outflow";
    accountNumber: string;
    currency: string;
    /** What left the account alone today before this movement. */
    outflowTodayMinor: Minor;
    amountMinor: Minor;
    limitMinor: Minor;
  };

/** The maker's day-total rule broken by `amountMinor`, or null when the movement stays within it. */
export function makerDayGround(
  currency: string,
  movedTodayMinor: Minor,
  amountMinor: Minor,
  thresholdMinor: Minor,
): ApprovalGround | null {
  if (!dayTotalNeedsApproval(movedTodayMinor, amountMinor, thresholdMinor)) return null;
  return { rule: "maker_day_total", currency, movedTodayMinor, amountMinor, thresholdMinor };
}

/** What the account-outflow rule weighs: the account's figures for the UTC day. */
export interface AccountOutflow {
  accountNumber: string;
  currency: string;
  outflowTodayMinor: Minor;
  limitMinor: Minor | null;
}

/** The account's daily-outflow rule broken by `amountMinor`, or null when it stays within its limit. */
export function accountOutflowGround(account: AccountOutflow, amountMinor: Minor): ApprovalGround | null {
  const { accountNumber, currency, outflowTodayMinor, limitMinor } = account;
  if (limitMinor === null || !outflowNeedsApproval(outflowTodayMinor, amountMinor, limitMinor)) return null;
  return { rule: "account_daily_outflow", accountNumber, currency, outflowTodayMinor, amountMinor, limitMinor };
}

/** "1200000.00" as "1,200,000.00": figures people compare at a glance. */
export function groupedAmount(minor: Minor): string {
  return groupDigits(formatMoney(minor));
}

/** The sentence the maker reads in the 202 answer and the preview, amounts in en-US currency format. */
export function approvalGroundMessage(ground: ApprovalGround): string {
  const money = (minor: Minor) => formatCurrencyEnUs(minor, ground.currency);
  if (ground.rule === "maker_day_total") {
    const total = ground.movedTodayMinor + ground.amountMinor;
    const threshold = money(ground.thresholdMinor);
    if (ground.movedTodayMinor === 0n) {
      return `${money(total)} is over the ${threshold} threshold`;
    }
    return `Your manual movements in ${ground.currency} today would total ${money(total)}, over the ${threshold} threshold`;
  }
  return `Account ${ground.accountNumber}'s outflow today would total ${
    money(ground.outflowTodayMinor + ground.amountMinor)
  }, over its daily limit of ${money(ground.limitMinor)}`;
}
