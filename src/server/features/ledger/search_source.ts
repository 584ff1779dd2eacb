/**
 * The accounts' part of search everywhere: by account number or name. The accounts are few and
 * listed whole (GET /api/ledger-accounts), so the text is matched row by row; an account of an
 * institution leads to the institution's page, which lists its accounts, any other to the accounts' screen.
 */
import { desc, eq, sql } from "drizzle-orm";
import { institutions, ledgerAccounts } from "../../../../db/schema.ts";
import type { AppDeps } from "../../http/context.ts";
import { findingsOf, type SearchSource, textMatches } from "../../http/search_sources.ts";

/** The screen that lists every account. */
const ACCOUNTS_SCREEN = "/balance-sweep";

export function accountSearchSource(deps: AppDeps): SearchSource {
  return {
    kind: "account",
    label: "Accounts",
    readRoute: ["GET", "/api/ledger-accounts"],
    async find(text, limit) {
      const rows = await deps.db.read.select({
        id: ledgerAccounts.id,
        accountNumber: ledgerAccounts.accountNumber,
        accountName: ledgerAccounts.accountName,
        accountType: ledgerAccounts.accountType,
        currency: ledgerAccounts.currency,
        institutionId: ledgerAccounts.institutionId,
        institutionName: institutions.name,
      }).from(ledgerAccounts)
        .leftJoin(institutions, eq(institutions.id, ledgerAccounts.institutionId))
        .where(textMatches([sql`${ledgerAccounts.accountNumber}`, sql`${ledgerAccounts.accountName}`], text))
        .orderBy(desc(ledgerAccounts.createdAt), desc(sql`${ledgerAccounts}.rowid`))
        .limit(limit + 1);
      return findingsOf(rows, limit, (row) => ({
        id: row.id,
        label: `${row.accountNumber} · ${row.accountName}`,
        detail: [`${row.accountType} account`, row.currency, row.institutionName].filter(Boolean).join(" · "),
        link: row.institutionId === null
          ? ACCOUNTS_SCREEN
          : `/institutions/${encodeURIComponent(row.institutionId)}`,
      }));
    },
  };
}
