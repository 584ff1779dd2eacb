/**
 * A sweep storm against a real server process, and the store invariants checked afterwards by
 * reading the database file directly. Shared by the concurrency and crash tests.
 */
import assert from "node:assert/strict";
import { verifyAuditChain } from "../../src/server/audit/trail.ts";
import { openDatabase } from "../../src/server/db/database.ts";
import { useChainKeyOfDatabase } from "../helpers/test_app.ts";
import { reconcile } from "../../src/server/features/ledger/reconciliation.ts";
import { chainEntriesForAccount, type RecordedSweep, verifyBalanceChain } from "../../src/domain/sweep.ts";
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD } from "../e2e/helpers.ts";
import { approveFiled, staffCrew, sweepIdsOfApprovedRun } from "../helpers/http_staff.ts";

export interface Client {
  baseUrl: string;
  /** An operator's session: the first administrator moves no money. */
  cookie: string;
  /** A second person's session (approver role), for the storm's four-eyes requests. */
  approverCookie: string;
}

export async function signInClient(baseUrl: string): Promise<Client> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD }),
  });
  await res.body?.cancel();
  assert.equal(res.status, 200, "sign-in failed");
  const adminCookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  const crew = await staffCrew(baseUrl, adminCookie);
  return { baseUrl, cookie: crew.operator, approverCookie: crew.approver };
}

export async function call(
  client: Client,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${client.baseUrl}${path}`, {
    method,
    headers: {
      cookie: client.cookie,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

export interface StormAccount {
  id: string;
  accountType: string;
  currency: string;
}

/**
 * A small set of accounts so requests collide: three ledgers and a settlement and a reserve
 * account that sweep into two liquid accounts by threshold (settlement and reserve also receive
 * manual sweeps, so auto-sweeps keep finding excess), and a EUR liquid account for rejections.
 */
export async function createStormAccounts(client: Client, tag: string): Promise<StormAccount[]> {
  const create = async (fields: Record<string, unknown>) => {
    const res = await call(client, "POST", "/api/ledger-accounts", {
      accountName: `Storm ${fields.accountType}`,
      currency: "USD",
      requestReason: "Storm account",
      ...fields,
    });
    if (res.status === 201) return res.json as StormAccount;
    // A funded account is a four-eyes request: a second person approves it.
    assert.equal(res.status, 202, JSON.stringify(res.json));
    const approved = await approveFiled(client.baseUrl, client.approverCookie, res.json);
    assert.equal(approved.status, 200, JSON.stringify(approved.json));
    const list = await call(client, "GET", "/api/ledger-accounts");
    return list.json.find((account: StormAccount) => account.id === approved.json.resultEntityId) as StormAccount;
  };
  const liquidA = await create({
    accountNumber: `${tag}-LIQ-A`,
    accountType: "liquid",
    currentBalance: "100.00",
  });
  const liquidB = await create({
    accountNumber: `${tag}-LIQ-B`,
    accountType: "liquid",
    currentBalance: "0.00",
  });
  const accounts = [liquidA, liquidB];
  for (const [index, target] of [liquidA, liquidB, liquidA].entries()) {
    accounts.push(
      await create({
        accountNumber: `${tag}-LDG-${index}`,
        accountType: "ledger",
        currentBalance: "200000.00",
        sweepThreshold: `${(index + 1) * 50_000}.00`,
        targetLiquidAccount: target.id,
      }),
    );
  }
  accounts.push(
    await create({
      accountNumber: `${tag}-SET`,
      accountType: "settlement",
      currentBalance: "50000.00",
      sweepThreshold: "10000.00",
      targetLiquidAccount: liquidB.id,
    }),
  );
  accounts.push(
    await create({
      accountNumber: `${tag}-RES`,
      accountType: "reserve",
      currentBalance: "0.00",
      sweepThreshold: "5000.00",
      targetLiquidAccount: liquidA.id,
    }),
  );
  accounts.push(
    await create({
      accountNumber: `${tag}-EUR`,
      accountType: "liquid",
      currency: "EUR",
      currentBalance: "10.00",
    }),
  );
  return accounts;
}

/** mulberry32: a seeded generator, so a failing storm can be replayed from its printed seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface StormResult {
  statuses: Map<number, number>;
  /** Ids of sweeps a 201 acknowledged (manual) or an auto-sweep reported. */
  acknowledgedSweepIds: Set<string>;
  manualCreated: number;
  autoSweepsReported: number;
  networkErrors: number;
  requestsSent: number;
  /** Keyed sweeps whose answer never arrived (the server died): safe to retry with the same key. */
  unansweredKeyed: { key: string; body: unknown }[];
}

export function newStormResult(): StormResult {
  return {
    statuses: new Map(),
    acknowledgedSweepIds: new Set(),
    manualCreated: 0,
    autoSweepsReported: 0,
    networkErrors: 0,
    requestsSent: 0,
    unansweredKeyed: [],
  };
}

export interface StormOptions {
  requests: number;
  clients: number;
  seed: number;
  /** Fraction of requests that are auto-sweeps; the rest are manual sweeps. */
  autoSweepShare?: number;
  /** Fraction of manual sweeps sent with an Idempotency-Key (each such key sent twice). */
  idempotentShare?: number;
}

const AUTO_SWEEP_SHARE = 0.1;
const IDEMPOTENT_SHARE = 0.2;
const MAX_STORM_AMOUNT_MINOR = 300_000;
/** Share of manual sweeps drawn from types the API accepts; the rest pick any two accounts. */
const PLAUSIBLE_SHARE = 0.7;

/**
 * Fires `requests` random manual sweeps and auto-sweeps from `clients` concurrent workers. Most
 * manual sweeps pair an accepted source type with an accepted target type; the others pick any two
 * accounts of the set, so they are rejected (types, currency, same account) by design.
 * A worker stops at its first network error (the server was killed).
 */
export async function runStorm(
  client: Client,
  accounts: StormAccount[],
  options: StormOptions,
  result: StormResult = newStormResult(),
): Promise<StormResult> {
  const random = seededRandom(options.seed);
  const autoShare = options.autoSweepShare ?? AUTO_SWEEP_SHARE;
  const idempotentShare = options.idempotentShare ?? IDEMPOTENT_SHARE;
  let remaining = options.requests;
  const count = (status: number) => result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
  const pickFrom = (list: StormAccount[]) => list[Math.floor(random() * list.length)];
  const usd = accounts.filter((account) => account.currency === "USD");
  const sources = usd.filter((account) => ["ledger", "settlement", "reserve"].includes(account.accountType));
  const targets = usd.filter((account) => ["liquid", "settlement", "reserve"].includes(account.accountType));

  const worker = async () => {
    while (remaining > 0) {
      remaining -= 1;
      result.requestsSent += 1;
      let pendingKeyed: { key: string; body: unknown } | null = null;
      try {
        if (random() < autoShare) {
          const res = await call(client, "POST", "/api/balance-sweeps/auto-sweep");
          count(res.status);
          if (res.status !== 202) continue;
          // Every run with moves is a request; a second person approves it while the storm goes on,
          // so most approvals find their moves gone (422) and some execute.
          const decided = await approveFiled(client.baseUrl, client.approverCookie, res.json);
          count(decided.status);
          if (decided.status === 200) {
            const ids = sweepIdsOfApprovedRun(decided.json);
            result.autoSweepsReported += ids.length;
            for (const id of ids) result.acknowledgedSweepIds.add(id);
          }
          continue;
        }
        const amountMinor = 1 + Math.floor(random() * MAX_STORM_AMOUNT_MINOR);
        const plausible = random() < PLAUSIBLE_SHARE;
        const body = {
          sourceAccountId: pickFrom(plausible ? sources : accounts).id,
          targetAccountId: pickFrom(plausible ? targets : accounts).id,
          sweepAmount: `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, "0")}`,
          sweepReason: "storm",
        };
        const key = random() < idempotentShare ? crypto.randomUUID() : null;
        const attempts = key === null ? 1 : 2;
        if (key !== null) pendingKeyed = { key, body };
        for (let attempt = 0; attempt < attempts; attempt++) {
          const res = await call(
            client,
            "POST",
            "/api/balance-sweeps",
            body,
            key ? { "Idempotency-Key": key } : {},
          );
          count(res.status);
          if (res.status === 201 && attempt === 0) {
            result.manualCreated += 1;
            result.acknowledgedSweepIds.add(res.json.id);
          }
        }
      } catch {
        result.networkErrors += 1;
        if (pendingKeyed !== null) result.unansweredKeyed.push(pendingKeyed);
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: options.clients }, worker));
  return result;
}

/**
 * Opens the database file directly and checks every invariant of the money core; returns the
 * number of completed sweeps. Run it only while no server process writes to the file.
 */
export async function checkStoreInvariants(
  databaseUrl: string,
): Promise<{ sweeps: number; sweepIds: Set<string> }> {
  await useChainKeyOfDatabase(databaseUrl);
  const db = await openDatabase(databaseUrl);
  try {
    const q = async (text: string) => (await db.readClient.execute(text)).rows;
    const accounts = await q(
      "SELECT id, opening_balance_minor, current_balance_minor, available_balance_minor FROM ledger_accounts",
    );
    for (const account of accounts) {
      assert.ok(Number(account.current_balance_minor) >= 0, `negative balance on ${account.id}`);
      assert.ok(Number(account.available_balance_minor) >= 0, `negative available balance on ${account.id}`);
    }

    const [totals] = await q(`SELECT
        (SELECT coalesce(sum(current_balance_minor), 0) FROM ledger_accounts) AS balances,
        (SELECT coalesce(sum(amount_minor), 0) FROM ledger_entries WHERE entry_type = 'opening') AS openings,
        (SELECT coalesce(sum(amount_minor), 0) FROM ledger_entries WHERE entry_type = 'card_funding') AS card_funding`);
    assert.equal(
      BigInt(totals.balances as number),
      BigInt(totals.openings as number) + BigInt(totals.card_funding as number),
      "total of balances differs from the total of opening entries (plus card funding)",
    );

    const sweepRows = await q(`SELECT id, source_account_id, target_account_id, sweep_amount_minor,
        source_balance_before_minor, source_balance_after_minor, target_balance_before_minor,
        target_balance_after_minor, sweep_status,
        (SELECT count(*) FROM audit_trail a WHERE a.entity_type = 'balance_sweep' AND a.entity_id = s.id) AS audit_rows,
        (SELECT count(*) FROM ledger_entries e WHERE e.reference_type = 'sweep' AND e.reference_id = s.id) AS entries
      FROM balance_sweeps s ORDER BY rowid`);
    const sweeps: RecordedSweep[] = sweepRows.map((row) => {
      assert.equal(row.sweep_status, "completed", `sweep ${row.id} is ${row.sweep_status}`);
      assert.equal(Number(row.audit_rows), 1, `sweep ${row.id} has ${row.audit_rows} audit rows`);
      assert.equal(Number(row.entries), 2, `sweep ${row.id} has ${row.entries} journal entries`);
      return {
        id: String(row.id),
        sourceAccountId: String(row.source_account_id),
        targetAccountId: String(row.target_account_id),
        amountMinor: BigInt(row.sweep_amount_minor as number),
        sourceBalanceBefore: BigInt(row.source_balance_before_minor as number),
        sourceBalanceAfter: BigInt(row.source_balance_after_minor as number),
        targetBalanceBefore: BigInt(row.target_balance_before_minor as number),
        targetBalanceAfter: BigInt(row.target_balance_after_minor as number),
      };
    });
    const [orphans] = await q(`SELECT count(*) AS n FROM ledger_entries e WHERE e.reference_type = 'sweep'
      AND NOT EXISTS (SELECT 1 FROM balance_sweeps s WHERE s.id = e.reference_id)`);
    assert.equal(Number(orphans.n), 0, "journal entries of a sweep that was never recorded");

    // Accounts without card funding: their sweeps alone chain from the opening balance to the
    // current balance (the journal-wide chain, card funding included, is checked by reconcile()).
    const funded = new Set(
      (await q("SELECT DISTINCT account_id FROM ledger_entries WHERE entry_type = 'card_funding'"))
        .map((row) => String(row.account_id)),
    );
    for (const account of accounts) {
      const accountId = String(account.id);
      if (funded.has(accountId)) continue;
      const chain = verifyBalanceChain(
        chainEntriesForAccount(accountId, sweeps),
        BigInt(account.opening_balance_minor as number),
        BigInt(account.current_balance_minor as number),
      );
      assert.ok(chain.ok, `sweep chain of ${accountId} is broken: ${!chain.ok && chain.error.message}`);
    }

    const report = await reconcile(db.readClient);
    assert.equal(report.ok, true, JSON.stringify(report.problems.slice(0, 5)));
    const audit = await verifyAuditChain(db.read);
    assert.equal(audit.ok, true, JSON.stringify(audit));
    return { sweeps: sweeps.length, sweepIds: new Set(sweeps.map((sweep) => sweep.id)) };
  } finally {
    db.close();
  }
}
