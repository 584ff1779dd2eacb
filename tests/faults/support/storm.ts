/**
 * A concurrent load of money movements and registrations over real HTTP: manual sweeps (some
 * with an Idempotency-Key, some deliberately overdrawing), auto-sweeps, institution
 * registrations, card issues and card loads. Operations whose route the server does not mount are
 * left out, so the storm grows as features land. Every acknowledged record is remembered, so a
 * test can prove that what the server confirmed survived.
 */
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD } from "../../e2e/helpers.ts";
import { approveFiled, staffCrew, sweepIdsOfApprovedRun } from "../../helpers/http_staff.ts";

export interface StormAccounts {
  ledger: string[];
  liquid: string[];
}

export interface StormResult {
  byOperation: Record<string, Record<string, number>>;
  /** Acknowledged (2xx) records: these must exist after any crash. */
  acked: { sweeps: string[]; institutions: string[]; cards: string[]; cardLoads: number; reports?: string[] };
  serverErrors: string[];
  networkErrors: number;
}

/**
 * Who works in a storm, as session cookies: the operator moves money and registers, an approver a
 * second administrator confirmed approves, the first administrator (who holds administrator alone)
 * generates reports of every kind.
 */
export interface StormStaff {
  administrator: string;
  operator: string;
  approver: string;
}

/** The storm's staff: the crew of the server and its first administrator `adminCookie`, made once. */
export async function stormStaff(baseUrl: string, adminCookie: string): Promise<StormStaff> {
  const crew = await staffCrew(baseUrl, adminCookie);
  return { administrator: adminCookie, operator: crew.operator, approver: crew.approver };
}

/** Signs in (the first administrator unless told otherwise) and answers the session cookie. */
export async function signIn(
  baseUrl: string,
  email = E2E_ADMIN_EMAIL,
  password = E2E_ADMIN_PASSWORD,
): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status}`);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

export function client(baseUrl: string, cookie: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, json, text };
  };
}

/** Whether the router serves `method path` (the catch-all's 404 says just "Not Found"). */
export async function routeExists(
  call: ReturnType<typeof client>,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await call(method, path, body);
  return !(res.status === 404 && res.json?.message === "Not Found");
}

/** The storm's accounts, opened by the staff's operator; funded ones are approved by its approver. */
export async function createStormAccounts(
  baseUrl: string,
  staff: StormStaff,
  tag: string,
): Promise<StormAccounts | null> {
  const call = client(baseUrl, staff.operator);
  if (!(await routeExists(call, "GET", "/api/ledger-accounts"))) return null;
  const approverCookie = staff.approver;
  const make = async (n: number, type: string, balance: string, extra: Record<string, unknown> = {}) => {
    const res = await call("POST", "/api/ledger-accounts", {
      accountNumber: `STORM-${tag}-${type}-${n}`,
      accountType: type,
      accountName: `Storm ${type} ${n}`,
      currency: "USD",
      currentBalance: balance,
      requestReason: "Storm account",
      ...extra,
    });
    if (res.status === 201) return res.json.id as string;
    if (res.status !== 202) throw new Error(`creating a ledger account failed: ${res.status} ${res.text}`);
    const approved = await approveFiled(baseUrl, approverCookie, res.json);
    if (approved.status !== 200) throw new Error(`approving an opening balance failed: ${approved.status}`);
    return approved.json.resultEntityId as string;
  };
  // Manual sweeps keep filling liquid 1, whose threshold makes every auto-sweep (and scheduled
  // run) move its excess on to liquid 2: automatic sweeps keep racing manual ones.
  const sink = await make(2, "liquid", "10.00");
  const liquid = [
    await make(1, "liquid", "0.00", { sweepThreshold: "100.00", targetLiquidAccount: sink }),
    sink,
  ];
  const ledger = [
    await make(1, "ledger", "1000000.00", { sweepThreshold: "999000.00", targetLiquidAccount: liquid[0] }),
    await make(2, "ledger", "500000.00", { sweepThreshold: "499500.00", targetLiquidAccount: liquid[1] }),
    await make(3, "ledger", "250.00"),
  ];
  return { ledger, liquid };
}

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
const cents = (max: number) => (Math.floor(Math.random() * max) + 1) / 100;

export interface StormOptions {
  baseUrl: string;
  staff: StormStaff;
  accounts: StormAccounts | null;
  workers: number;
  /** Stop after this many operations in total, or when `stop()` returns true. */
  maxOperations: number;
  stop?: () => boolean;
  tag: string;
}

export async function runStorm(options: StormOptions): Promise<StormResult> {
  const call = client(options.baseUrl, options.staff.operator);
  const asAdministrator = client(options.baseUrl, options.staff.administrator);
  const result: StormResult = {
    byOperation: {},
    acked: { sweeps: [], institutions: [], cards: [], cardLoads: 0, reports: [] },
    serverErrors: [],
    networkErrors: 0,
  };
  const hasInstitutions = await routeExists(call, "GET", "/api/institutions");
  const hasCards = await routeExists(call, "GET", "/api/cards");
  const hasReports = await routeExists(call, "GET", "/api/reports");
  const hasSweeps = options.accounts !== null && await routeExists(call, "GET", "/api/balance-sweeps");
  const cards: string[] = [];
  let counter = 0;

  type Answer = { status: number; json: any; text: string };
  /** null: the operation had nothing to act on yet (a card load before any card exists). */
  const operations: { name: string; weight: number; run: () => Promise<Answer | null> }[] = [];
  if (hasSweeps) {
    const { ledger, liquid } = options.accounts!;
    operations.push({
      name: "sweep",
      weight: 6,
      run: async () => {
        const res = await call("POST", "/api/balance-sweeps", {
          sourceAccountId: pick(ledger.slice(0, 2)),
          targetAccountId: pick(liquid),
          sweepAmount: cents(50_000).toFixed(2),
          sweepReason: "storm",
        });
        if (res.status === 201) result.acked.sweeps.push(res.json.id);
        return res;
      },
    });
    operations.push({
      name: "sweep with Idempotency-Key (sent twice)",
      weight: 2,
      run: async () => {
        const key = `${options.tag}-${crypto.randomUUID()}`;
        const body = {
          sourceAccountId: pick(ledger.slice(0, 2)),
          targetAccountId: pick(liquid),
          sweepAmount: "1.00",
        };
        const first = await call("POST", "/api/balance-sweeps", body, { "idempotency-key": key });
        const again = await call("POST", "/api/balance-sweeps", body, { "idempotency-key": key });
        if (first.status === 201) result.acked.sweeps.push(first.json.id);
        if (first.status === 201 && again.status < 300 && again.json?.id !== first.json.id) {
          result.serverErrors.push(
            `idempotent retry moved money again: ${first.json.id} then ${again.json?.id}`,
          );
        }
        return again.status >= 500 ? again : first;
      },
    });
    operations.push({
      name: "overdrawing sweep",
      weight: 1,
      run: () =>
        call("POST", "/api/balance-sweeps", {
          sourceAccountId: ledger[2],
          targetAccountId: pick(liquid),
          sweepAmount: "9999999.00",
        }),
    });
    operations.push({
      name: "auto-sweep",
      weight: 1,
      run: async () => {
        const res = await call("POST", "/api/balance-sweeps/auto-sweep");
        if (res.status !== 202) return res;
        // Every run with moves is a request, which a second person approves during the storm.
        const decided = await approveFiled(options.baseUrl, options.staff.approver, res.json);
        if (decided.status === 200) result.acked.sweeps.push(...sweepIdsOfApprovedRun(decided.json));
        return { ...decided, text: JSON.stringify(decided.json) };
      },
    });
  }
  if (hasInstitutions) {
    operations.push({
      name: "institution registration",
      weight: 3,
      run: async () => {
        const n = `${options.tag}-${++counter}-${crypto.randomUUID().slice(0, 8)}`;
        const res = await call("POST", "/api/institutions", {
          name: `Storm Bank ${n}`,
          type: "commercial",
          registrationNumber: `STORM-${n}`,
          address: "1 Storm Street",
          phoneNumber: "+1-555-0100",
          emailAddress: `storm-${n}@bank.example`,
          numberOfBranches: 3,
          swiftParticipant: false,
        });
        if (res.status === 201) result.acked.institutions.push(res.json.id);
        return res;
      },
    });
  }
  if (hasCards) {
    operations.push({
      name: "card issue",
      weight: 2,
      run: async () => {
        const res = await call("POST", "/api/cards/issue", {
          cardholderName: `Storm Holder ${++counter}`,
          cardType: "prepaid",
          cardBrand: "visa",
          initialBalance: cents(10_000).toFixed(2),
        });
        if (res.status === 201) {
          result.acked.cards.push(res.json.id);
          cards.push(res.json.id);
        }
        return res;
      },
    });
    operations.push({
      name: "card load",
      weight: 3,
      run: async () => {
        if (cards.length === 0) return null;
        const res = await call("POST", `/api/cards/${pick(cards)}/load`, {
          amount: cents(20_000).toFixed(2),
          fundingSource: pick(["central_bank_treasury", "settlement_source", "operating_account"]),
        });
        if (res.status === 200 || res.status === 201) result.acked.cardLoads++;
        return res;
      },
    });
  }
  if (hasReports) {
    const today = new Date().toISOString().slice(0, 10);
    operations.push({
      name: "report generation",
      weight: 1,
      run: async () => {
        const res = await asAdministrator("POST", "/api/reports", {
          type: pick(["institutions", "audit-trail", "routing-codes", "api-usage"]),
          format: pick(["pdf", "csv", "xlsx", "xml"]),
          from: `${new Date().getUTCFullYear() - 1}-01-01`,
          to: today,
        });
        if (res.status === 201 || res.status === 200) result.acked.reports!.push(res.json?.id);
        return res;
      },
    });
  }
  if (operations.length === 0) return result;

  const totalWeight = operations.reduce((sum, op) => sum + op.weight, 0);
  const choose = () => {
    let r = Math.random() * totalWeight;
    for (const op of operations) if ((r -= op.weight) < 0) return op;
    return operations[0];
  };
  let issued = 0;
  const worker = async () => {
    while (issued < options.maxOperations && !options.stop?.()) {
      issued++;
      const op = choose();
      try {
        const res = await op.run();
        if (res === null) continue;
        const counts = (result.byOperation[op.name] ??= {});
        counts[res.status] = (counts[res.status] ?? 0) + 1;
        if (res.status >= 500) {
          result.serverErrors.push(`${op.name}: ${res.status} ${res.text.slice(0, 200)}`);
        }
      } catch {
        result.networkErrors++;
        if (options.stop?.()) return;
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  return result;
}
