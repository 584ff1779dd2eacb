/**
 * The money desk the replication drills share: an operator made at headquarters, a ledger account
 * to sweep from and a liquid one to sweep to, and that operator signed in at every node.
 */
import { createStaffSession, HTTP_STAFF_PASSWORD, openAccount } from "../../helpers/http_staff.ts";
import { call, type Call, type Cluster, signIn } from "./cluster.ts";

export interface SweepPair {
  source: string;
  target: string;
}

/** One node's place to work: its URL and the operator's session there. */
export interface Desk {
  name: string;
  baseUrl: string;
  cookie: string;
}

/** Opens `<prefix>-SRC` (USD ledger, `opening`) and `<prefix>-DST` (USD liquid, empty). */
export async function openSweepPair(
  baseUrl: string,
  operatorCookie: string,
  adminCookie: string,
  prefix: string,
  opening: string,
): Promise<SweepPair> {
  const make = (accountNumber: string, accountType: string, currentBalance: string) =>
    openAccount(baseUrl, operatorCookie, {
      accountNumber,
      accountName: accountNumber,
      accountType,
      currency: "USD",
      currentBalance,
    }, adminCookie);
  return { source: await make(`${prefix}-SRC`, "ledger", opening), target: await make(`${prefix}-DST`, "liquid", "0.00") };
}

/** The administrator and the operator at headquarters, a pair, and the operator's desk at every node (headquarters first). */
export async function sweepDesks(cluster: Cluster, operatorEmail: string, prefix: string, opening: string) {
  const hq = cluster.headquarters.baseUrl;
  const adminCookie = await signIn(hq);
  const operatorCookie = await createStaffSession(hq, adminCookie, operatorEmail, ["operator"]);
  const pair = await openSweepPair(hq, operatorCookie, adminCookie, prefix, opening);
  const desks: Desk[] = [{ name: "headquarters", baseUrl: hq, cookie: operatorCookie }];
  for (const node of cluster.regions) {
    const cookie = await signIn(node.server.baseUrl, operatorEmail, HTTP_STAFF_PASSWORD);
    desks.push({ name: `region:${node.region}`, baseUrl: node.server.baseUrl, cookie });
  }
  return { adminCookie, operatorCookie, pair, desks };
}

/** One manual sweep under its own Idempotency-Key (or `key`). */
export function sweep(desk: Omit<Desk, "name">, pair: SweepPair, amount: string, key: string = crypto.randomUUID()): Promise<Call> {
  return call(desk.baseUrl, "POST", "/api/balance-sweeps", desk.cookie, {
    sourceAccountId: pair.source,
    targetAccountId: pair.target,
    sweepAmount: amount,
  }, { "Idempotency-Key": key });
}
