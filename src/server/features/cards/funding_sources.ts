/**
 * The three accounts cards are funded from. They are ordinary ledger accounts (so sweeps and
 * reconciliation see them), seeded on first start; this table is the one mapping from the API's
 * `fundingSource` values to their account numbers.
 */
import type { ACCOUNT_TYPES, FUNDING_SOURCES } from "../../../../db/schema.ts";

export type FundingSource = (typeof FUNDING_SOURCES)[number];

export interface FundingSourceAccount {
  label: string;
  accountNumber: string;
  accountName: string;
  accountType: (typeof ACCOUNT_TYPES)[number];
  currency: "USD";
  openingBalanceMinor: number;
}

export const DEFAULT_FUNDING_SOURCE: FundingSource = "central_bank_treasury";
/** Cards hold US dollars; a funding source in another currency cannot fund them. */
export const CARD_CURRENCY = "USD";

/** 1,000,000,000,000.00: "enormous", and still inside decimal(15,2). */
const TREASURY_OPENING_BALANCE_MINOR = 100_000_000_000_000;
const SETTLEMENT_OPENING_BALANCE_MINOR = 100_000_000_000_000;
/** 10,000,000.00: the operating account is a working float, small enough to run dry. */
const OPERATING_OPENING_BALANCE_MINOR = 1_000_000_000;

export const FUNDING_SOURCE_ACCOUNTS: Readonly<Record<FundingSource, FundingSourceAccount>> = {
  central_bank_treasury: {
    label: "Central Bank Treasury",
    accountNumber: "CB-TREASURY-001",
    accountName: "Central Bank Treasury",
    accountType: "reserve",
    currency: CARD_CURRENCY,
    openingBalanceMinor: TREASURY_OPENING_BALANCE_MINOR,
  },
  settlement_source: {
    label: "Settlement Source",
    accountNumber: "CB-SETTLEMENT-001",
    accountName: "Central Bank Settlement Source",
    accountType: "settlement",
    currency: CARD_CURRENCY,
    openingBalanceMinor: SETTLEMENT_OPENING_BALANCE_MINOR,
  },
  operating_account: {
    label: "Operating Account",
    accountNumber: "CB-OPERATING-001",
    accountName: "Central Bank Operating Account",
    accountType: "ledger",
    currency: CARD_CURRENCY,
    openingBalanceMinor: OPERATING_OPENING_BALANCE_MINOR,
  },
};
