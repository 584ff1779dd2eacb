/**
 * The invariants every fault test checks after the fault: money conserved, no negative balance,
 * unbroken balance chains, every completed mutation audited, the audit chain intact, no partial
 * record. Returns the violations (empty when all hold), so a failure lists every broken rule.
 */
import { sql } from "drizzle-orm";
import { verifyAuditChain } from "../../../src/server/audit/trail.ts";
import type { Queryable } from "../../../src/server/db/database.ts";

async function tableExists(db: Queryable, name: string): Promise<boolean> {
  const rows = await db.all(sql`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ${name}`);
  return rows.length > 0;
}

export interface InvariantReport {
  violations: string[];
  counts: Record<string, number>;
  /** Findings that break no invariant of money or records (e.g. leftover temporary files). */
  observations: string[];
}

export async function checkInvariants(db: Queryable): Promise<InvariantReport> {
  const violations: string[] = [];
  const counts: Record<string, number> = {};
  const count = async (table: string) => {
    const [row] = await db.all<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM "${table}"`));
    counts[table] = row.n;
  };
  for (
    const table of [
      "institutions",
      "ledger_accounts",
      "ledger_entries",
      "balance_sweeps",
      "cards",
      "audit_trail",
    ]
  ) {
    await count(table);
  }
  const byType = await db.all<{ type: string; n: number }>(
    sql`SELECT sweep_type AS type, count(*) AS n FROM balance_sweeps GROUP BY sweep_type`,
  );
  for (const t of byType) counts[`sweeps:${t.type}`] = t.n;
  const hasCardLoads = await tableExists(db, "card_loads");
  if (hasCardLoads) await count("card_loads");

  // Money conserved: everything on accounts and cards came from an opening entry, per currency for
  // accounts; cards hold the money their loads took from accounts.
  const [money] = await db.all<{ accounts: number | null; cards: number | null; opening: number | null }>(
    sql`SELECT
      (SELECT sum(current_balance_minor) FROM ledger_accounts) AS accounts,
      (SELECT sum(current_balance_minor) FROM cards) AS cards,
      (SELECT sum(amount_minor) FROM ledger_entries WHERE entry_type = 'opening') AS opening`,
  );
  const held = (money.accounts ?? 0) + (money.cards ?? 0);
  if (held !== (money.opening ?? 0)) {
    violations.push(
      `money not conserved: accounts ${money.accounts} + cards ${money.cards} != openings ${money.opening}`,
    );
  }

  const negatives = await db.all<{ id: string; current: number; available: number }>(sql`SELECT id,
      current_balance_minor AS current, available_balance_minor AS available FROM ledger_accounts
      WHERE current_balance_minor < 0 OR available_balance_minor < 0`);
  for (const n of negatives) {
    violations.push(`negative balance on account ${n.id}: ${n.current}/${n.available}`);
  }
  const negativeCards = await db.all<{ id: string }>(
    sql`SELECT id FROM cards WHERE current_balance_minor < 0`,
  );
  for (const n of negativeCards) violations.push(`negative balance on card ${n.id}`);

  // Balance chains: per account, entries in journal order start from zero, each starts where the
  // previous ended, and the last ends at the current balance.
  const accounts = await db.all<{ id: string; current: number }>(
    sql`SELECT id, current_balance_minor AS current FROM ledger_accounts`,
  );
  const entries = await db.all<
    { accountId: string; seq: number; amount: number; before: number; after: number }
  >(sql`
    SELECT account_id AS accountId, seq, amount_minor AS amount, balance_before_minor AS before,
      balance_after_minor AS after FROM ledger_entries ORDER BY seq`);
  const byAccount = new Map<string, typeof entries>();
  for (const e of entries) byAccount.set(e.accountId, [...(byAccount.get(e.accountId) ?? []), e]);
  for (const account of accounts) {
    let balance = 0;
    for (const e of byAccount.get(account.id) ?? []) {
      if (e.before !== balance) {
        violations.push(
          `chain broken on account ${account.id} at entry seq ${e.seq}: before ${e.before}, expected ${balance}`,
        );
        break;
      }
      if (e.before + e.amount !== e.after) violations.push(`entry seq ${e.seq} does not add up`);
      balance = e.after;
    }
    if (balance !== account.current) {
      violations.push(`account ${account.id} balance ${account.current} != end of its chain ${balance}`);
    }
  }

  // No partial sweep: every sweep is completed and has exactly its two journal entries.
  const sweeps = await db.all<{
    id: string;
    status: string;
    source: string;
    target: string;
    amount: number;
    outs: number;
    ins: number;
  }>(sql`SELECT s.id, s.sweep_status AS status, s.source_account_id AS source, s.target_account_id AS target,
      s.sweep_amount_minor AS amount,
      (SELECT count(*) FROM ledger_entries e WHERE e.reference_type = 'sweep' AND e.reference_id = s.id
        AND e.account_id = s.source_account_id AND e.amount_minor = -s.sweep_amount_minor) AS outs,
      (SELECT count(*) FROM ledger_entries e WHERE e.reference_type = 'sweep' AND e.reference_id = s.id
        AND e.account_id = s.target_account_id AND e.amount_minor = s.sweep_amount_minor) AS ins
    FROM balance_sweeps s`);
  for (const s of sweeps) {
    if (s.status !== "completed") violations.push(`sweep ${s.id} left ${s.status}`);
    if (s.outs !== 1 || s.ins !== 1) {
      violations.push(`sweep ${s.id} has ${s.outs} debit and ${s.ins} credit entries`);
    }
  }
  // A scheduled run takes exactly the excess over the threshold. An approved automatic run
  // ('threshold') takes exactly the amounts its approver saw, which the excess may have outgrown
  // meanwhile, never more. Either way, a source left below its threshold means a run swept the
  // same excess twice.
  const overswept = await db.all<{ id: string; after: number; threshold: number | null }>(sql`SELECT s.id,
      s.source_balance_after_minor AS after, a.sweep_threshold_minor AS threshold
    FROM balance_sweeps s JOIN ledger_accounts a ON a.id = s.source_account_id
    WHERE (s.sweep_type = 'scheduled'
        AND (a.sweep_threshold_minor IS NULL OR s.source_balance_after_minor <> a.sweep_threshold_minor))
      OR (s.sweep_type = 'threshold'
        AND (a.sweep_threshold_minor IS NULL OR s.source_balance_after_minor < a.sweep_threshold_minor))
    LIMIT 5`);
  for (const s of overswept) {
    violations.push(
      `automatic sweep ${s.id} left its source at ${s.after}, against its threshold ${s.threshold}`,
    );
  }
  const orphanSweepEntries = await db.all<{ id: string }>(sql`SELECT e.id FROM ledger_entries e
    WHERE e.reference_type = 'sweep' AND NOT EXISTS (SELECT 1 FROM balance_sweeps s WHERE s.id = e.reference_id)`);
  for (const e of orphanSweepEntries) {
    violations.push(`ledger entry ${e.id} names a sweep that does not exist`);
  }
  const orphanOpenings = await db.all<{ id: string }>(sql`SELECT e.id FROM ledger_entries e
    WHERE e.entry_type = 'opening' AND NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = e.account_id)`);
  for (const e of orphanOpenings) violations.push(`opening entry ${e.id} has no account`);

  // Cards: each card's balance is the sum of its loads, and each load's debit is in the journal.
  if (hasCardLoads) {
    const cardSums = await db.all<{ id: string; balance: number; loaded: number | null }>(sql`SELECT c.id,
        c.current_balance_minor AS balance, (SELECT sum(amount_minor) FROM card_loads l WHERE l.card_id = c.id) AS loaded
      FROM cards c`);
    for (const c of cardSums) {
      if (c.balance !== (c.loaded ?? 0)) {
        violations.push(`card ${c.id} balance ${c.balance} != its loads ${c.loaded ?? 0}`);
      }
    }
    const unmatched = await db.all<{ id: string }>(sql`SELECT l.id FROM card_loads l
      LEFT JOIN ledger_entries e ON e.id = l.ledger_entry_id
      WHERE e.id IS NULL OR e.amount_minor <> -l.amount_minor OR e.account_id <> l.source_account_id`);
    for (const l of unmatched) violations.push(`card load ${l.id} has no matching journal debit`);
    const orphanFunding = await db.all<{ id: string }>(sql`SELECT e.id FROM ledger_entries e
      WHERE e.entry_type = 'card_funding' AND NOT EXISTS (SELECT 1 FROM card_loads l WHERE l.ledger_entry_id = e.id)`);
    for (const e of orphanFunding) violations.push(`card funding entry ${e.id} has no card load`);
  }

  // Every completed mutation audited: each record names its audit row by entity id.
  for (const table of ["balance_sweeps", "institutions", "cards", "ledger_accounts"]) {
    const unaudited = await db.all<{ id: string }>(sql.raw(`SELECT t.id FROM "${table}" t
      WHERE NOT EXISTS (SELECT 1 FROM audit_trail a WHERE a.entity_id = t.id) LIMIT 5`));
    for (const u of unaudited) violations.push(`${table} row ${u.id} has no audit row`);
  }
  const sweepAudits = await db.all<{ id: string; n: number }>(sql`SELECT s.id,
      (SELECT count(*) FROM audit_trail a WHERE a.entity_id = s.id) AS n
    FROM balance_sweeps s WHERE (SELECT count(*) FROM audit_trail a WHERE a.entity_id = s.id) <> 1 LIMIT 5`);
  for (const s of sweepAudits) violations.push(`sweep ${s.id} has ${s.n} audit rows, not exactly one`);
  if (await tableExists(db, "institution_search_keys")) {
    const unindexed = await db.all<{ id: string }>(sql`SELECT i.id FROM institutions i WHERE NOT EXISTS
      (SELECT 1 FROM institution_search_keys k WHERE k.institution_id = i.id) LIMIT 5`);
    for (const u of unindexed) violations.push(`institution ${u.id} is missing from the search index`);
  }
  if (hasCardLoads) {
    const unaudited = await db.all<{ id: string }>(sql`SELECT l.id FROM card_loads l WHERE NOT EXISTS
      (SELECT 1 FROM audit_trail a WHERE a.entity_id IN (l.id, l.card_id)) LIMIT 5`);
    for (const u of unaudited) violations.push(`card load ${u.id} has no audit row`);
  }

  const chain = await verifyAuditChain(db);
  if (!chain.ok) {
    violations.push(`audit chain broken at seq ${chain.firstBroken.seq}: ${chain.firstBroken.reason}`);
  }
  return { violations, counts, observations: [] };
}
