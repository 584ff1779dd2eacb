/** Helpers shared by the ledger, sweep, concurrency and crash tests. */
import { validateXML } from "xmllint-wasm";
import type { Database } from "../../src/server/db/database.ts";
import { approvedBySecondPerson } from "../helpers/staff.ts";
import { expectJson, type Requester } from "../helpers/test_app.ts";

export type { Requester };

let accountCounter = 0;

/** A unique account number per call, so tests never collide on the unique column. */
export function nextAccountNumber(prefix = "ACC"): string {
  accountCounter += 1;
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}-${accountCounter}`;
}

export interface AccountFields {
  accountNumber?: string;
  accountType?: "ledger" | "liquid" | "settlement" | "reserve";
  accountName?: string;
  currency?: "USD" | "EUR" | "GBP" | "JPY";
  currentBalance?: string | number;
  sweepThreshold?: string | number | null;
  targetLiquidAccount?: string | null;
  accountStatus?: "active" | "inactive" | "frozen" | "closed";
  institutionId?: string | null;
  nationalRoutingId?: string | null;
}

/**
 * Creates an account through the API and returns its JSON. An account opened empty answers 201; one
 * opened with a balance is a four-eyes request (202), which a second person then approves.
 */
export async function createAccount(req: Requester, fields: AccountFields = {}) {
  const body = {
    accountNumber: nextAccountNumber(fields.accountType ?? "ledger"),
    accountType: "ledger",
    accountName: "Test account",
    currency: "USD",
    currentBalance: "0.00",
    requestReason: "Opening balance of a test account",
    ...fields,
  };
  const answer = await req("POST", "/api/ledger-accounts", { body });
  if (answer.status !== 202) return await expectJson(answer, 201);
  const decided = await approvedBySecondPerson(req, answer);
  return await accountById(req, decided.resultEntityId!);
}

/** One account as the list answers it. */
export async function accountById(req: Requester, id: string) {
  const accounts = await expectJson<{ id: string }[]>(await req("GET", "/api/ledger-accounts"), 200);
  const account = accounts.find((candidate) => candidate.id === id);
  if (!account) throw new Error(`account ${id} is not in the list`);
  return account as any;
}

/**
 * Runs the automatic sweep: every run with moves is a four-eyes request, which a second person
 * approves here. Answers what the run executed.
 */
export async function runAutoSweepApproved(
  req: Requester,
  body: Record<string, unknown> = {},
): Promise<{ sweepsExecuted: number; sweepIds: string[] }> {
  const answer = await req("POST", "/api/balance-sweeps/auto-sweep", { body });
  if (answer.status !== 202) return await expectJson(answer, 200);
  const decided = await approvedBySecondPerson(req, answer);
  const sweepIds = decided.resultEntityId === "none" ? [] : decided.resultEntityId!.split(",");
  return { sweepsExecuted: sweepIds.length, sweepIds };
}

/** Balances by account id, as decimal strings, read through the API. */
export async function balances(req: Requester): Promise<Map<string, string>> {
  const accounts = await expectJson<{ id: string; currentBalance: string }[]>(
    await req("GET", "/api/ledger-accounts"),
    200,
  );
  return new Map(accounts.map((account) => [account.id, account.currentBalance]));
}

/** Row counts of the tables a sweep writes, to prove that a rejection changed nothing. */
export async function writeCounts(db: Database) {
  const count = async (table: string) =>
    Number((await db.readClient.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  return {
    sweeps: await count("balance_sweeps"),
    entries: await count("ledger_entries"),
    audit: await count("audit_trail"),
  };
}

const XSD_URL = new URL("../../db/reference/iso20022/camt.050.001.05.xsd", import.meta.url);

/** Validates a message against the vendored camt.050.001.05 schema with libxml2 (xmllint-wasm). */
export async function validateCamt050(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const result = await validateXML({
    xml: [{ fileName: "message.xml", contents: xml }],
    schema: [{ fileName: "camt.050.001.05.xsd", contents: await Deno.readTextFile(XSD_URL) }],
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.message) };
}

/**
 * For tests of rules other than four-eyes approval: the administrator lifts every approval
 * threshold to the largest amount, so that any movement executes at once.
 */
export async function liftApprovalThresholds(req: Requester): Promise<void> {
  const max = "9999999999999.99";
  await expectJson(
    await req("PUT", "/api/approval-settings", { body: { thresholds: { USD: max, EUR: max, GBP: max, JPY: max } } }),
    200,
  );
}
