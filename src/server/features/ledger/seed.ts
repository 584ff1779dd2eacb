/**
 * Demo seeder (embedded database, SEED_DEMO≠0): two currencies, each with a ledger account above
 * its sweep threshold and the liquid account it sweeps to, so Auto Sweep has work on a fresh start.
 * Accounts are created through the service, so opening balances are journal-booked and audited.
 */
import { eq } from "drizzle-orm";
import { ledgerAccounts, SYSTEM_USER_ID } from "../../../../db/schema.ts";
import type { Actor } from "../../audit/trail.ts";
import type { Seeder } from "../../startup/seeder.ts";
import type { CreateAccountInput } from "./schemas.ts";
import { createAccount } from "./service.ts";

const SEED_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "demo-seed" };

interface DemoAccount {
  accountNumber: string;
  accountName: string;
  accountType: CreateAccountInput["accountType"];
  currency: CreateAccountInput["currency"];
  openingMinor: bigint;
  thresholdMinor: bigint | null;
  targetAccountNumber: string | null;
}

/** Liquid accounts first: the ledgers name them as their sweep targets. */
const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    accountNumber: "LIQ-USD-0001",
    accountName: "USD Intraday Liquidity",
    accountType: "liquid",
    currency: "USD",
    openingMinor: 50_000_000n,
    thresholdMinor: null,
    targetAccountNumber: null,
  },
  {
    accountNumber: "LIQ-EUR-0001",
    accountName: "EUR Intraday Liquidity",
    accountType: "liquid",
    currency: "EUR",
    openingMinor: 15_000_000n,
    thresholdMinor: null,
    targetAccountNumber: null,
  },
  {
    accountNumber: "LDG-USD-0001",
    accountName: "USD Settlement Ledger",
    accountType: "ledger",
    currency: "USD",
    openingMinor: 250_000_000n,
    thresholdMinor: 100_000_000n,
    targetAccountNumber: "LIQ-USD-0001",
  },
  {
    accountNumber: "LDG-EUR-0001",
    accountName: "EUR Settlement Ledger",
    accountType: "ledger",
    currency: "EUR",
    openingMinor: 80_000_000n,
    thresholdMinor: 50_000_000n,
    targetAccountNumber: "LIQ-EUR-0001",
  },
];

async function accountIdByNumber(deps: Parameters<Seeder>[0], accountNumber: string): Promise<string | null> {
  const row = await deps.db.read.select({ id: ledgerAccounts.id }).from(ledgerAccounts)
    .where(eq(ledgerAccounts.accountNumber, accountNumber)).get();
  return row?.id ?? null;
}

export const ledgerDemoSeeder: Seeder = async (deps, log) => {
  let created = 0;
  for (const account of DEMO_ACCOUNTS) {
    if (await accountIdByNumber(deps, account.accountNumber) !== null) continue;
    const target = account.targetAccountNumber === null
      ? null
      : await accountIdByNumber(deps, account.targetAccountNumber);
    await createAccount(deps.db, SEED_ACTOR, {
      accountNumber: account.accountNumber,
      accountName: account.accountName,
      accountType: account.accountType,
      currency: account.currency,
      accountStatus: "active",
      currentBalance: account.openingMinor,
      sweepThreshold: account.thresholdMinor,
      targetLiquidAccount: target,
      institutionId: null,
      nationalRoutingId: null,
    });
    created += 1;
  }
  if (created > 0) log(`demo ledger accounts: ${created} created`);
};
