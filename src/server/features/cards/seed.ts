/**
 * Reference seeder (runs on every start, idempotent): the three funding-source ledger accounts.
 * Each is inserted at 0 and credited its opening balance through the ledger journal, so even the
 * opening money has a journal entry explaining it.
 */
import { eq } from "drizzle-orm";
import { FUNDING_SOURCES, ledgerAccounts, SYSTEM_USER_ID } from "../../../../db/schema.ts";
import { formatMoney } from "../../../domain/money.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import { moveBalance } from "../ledger/journal.ts";
import type { Seeder } from "../../startup/seeder.ts";
import { FUNDING_SOURCE_ACCOUNTS } from "./funding_sources.ts";

const SYSTEM_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };

export const seedFundingSources: Seeder = async (deps, log) => {
  for (const fundingSource of FUNDING_SOURCES) {
    const source = FUNDING_SOURCE_ACCOUNTS[fundingSource];
    const created = await deps.db.transaction(async (tx) => {
      const existing = await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts)
        .where(eq(ledgerAccounts.accountNumber, source.accountNumber)).get();
      if (existing) return false;
      const id = crypto.randomUUID();
      const now = new Date().toISOString();
      await tx.insert(ledgerAccounts).values({
        id,
        accountNumber: source.accountNumber,
        accountType: source.accountType,
        accountName: source.accountName,
        currency: source.currency,
        currentBalanceMinor: 0,
        availableBalanceMinor: 0,
        openingBalanceMinor: source.openingBalanceMinor,
        createdAt: now,
        updatedAt: now,
        createdBy: SYSTEM_USER_ID,
      });
      const opening = await moveBalance(tx, {
        accountId: id,
        amountMinor: source.openingBalanceMinor,
        entryType: "opening",
        referenceType: "account",
        referenceId: id,
        performedBy: SYSTEM_USER_ID,
      });
      await recordAudit(tx, SYSTEM_ACTOR, {
        entityType: "ledger_account",
        entityId: id,
        action: "create",
        changes: {
          before: null,
          after: {
            accountNumber: source.accountNumber,
            accountName: source.accountName,
            accountType: source.accountType,
            currency: source.currency,
            fundingSource,
            openingBalance: formatMoney(BigInt(source.openingBalanceMinor)),
            ledgerEntryId: opening.entryId,
          },
        },
      });
      return true;
    });
    if (created) log(`seeded funding source ${fundingSource} (${source.accountNumber})`);
  }
};
