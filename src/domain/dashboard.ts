/**
 * The dashboard's computed texts: trend lines beside the counters and the system alerts, each
 * derived from counts so that no text can contradict the data it sits beside.
 *
 * @module
 */

/** "+N this month" for a growth count, "No change" when nothing was added. */
export function monthlyGrowthText(added: number): string {
  return added === 0 ? "No change" : `+${added.toLocaleString("en-US")} this month`;
}

/**
 * Today's count against yesterday's count over the same hours: "+18% vs yesterday",
 * "-5% vs yesterday", "No change" when equal, "None yesterday" when there is no base to compare.
 */
export function versusYesterdayText(today: number, yesterday: number): string {
  if (today === yesterday) return "No change";
  if (yesterday === 0) return "None yesterday";
  const percent = Math.round(((today - yesterday) / yesterday) * 100);
  if (percent === 0) return "No change";
  return `${percent > 0 ? "+" : ""}${percent}% vs yesterday`;
}

const MS_PER_HOUR = 3_600_000;

/**
 * How recent an active connection's last successful test must be for the dashboard to call it
 * operational: a test is a sample of the partner's state, and a day-old sample still says something.
 */
export const CONNECTION_TEST_FRESHNESS_HOURS = 24;
export const CONNECTION_TEST_FRESHNESS_MS = CONNECTION_TEST_FRESHNESS_HOURS * MS_PER_HOUR;

/** What is known of one active connection's tests, from their audit rows. */
export interface ActiveConnectionTests {
  name: string;
  /** When its most recent test ran, and whether it reached the partner; both null when never tested. */
  lastTestAt: string | null;
  lastTestSucceeded: boolean | null;
  /** When the current run of failed tests began (the first failure after the last success). */
  failingSince: string | null;
}

/** The facts the system alerts are computed from. */
export interface AlertFacts {
  /** Institutions registered and not yet active. */
  pendingInstitutions: number;
  /** Four-eyes requests waiting for a decision: the approvals queue's own count. */
  awaitingApproval: number;
  /** Every connection whose status is active, with its test record. */
  activeConnections: readonly ActiveConnectionTests[];
  /** The time the alerts are computed for, in epoch ms: a test's age is measured from it. */
  nowMs: number;
  /** Public API requests in the last hour, and how many of them the server failed (5xx). */
  apiRequestsLastHour: number;
  apiServerErrorsLastHour: number;
  /** E-mail addresses of accounts reported under sign-in attack lately (administrators only). */
  accountsUnderAttack?: readonly string[];
}

export type AlertTone = "warning" | "error" | "ok";

export interface DashboardAlert {
  id:
    | "sign-in-attacks"
    | "awaiting-approval"
    | "pending-institutions"
    | "no-active-connections"
    | "failing-connections"
    | "untested-connections"
    | "stale-connections"
    | "api-errors"
    | "operational";
  tone: AlertTone;
  title: string;
  text: string;
}

/** An alert names this many accounts or connections and counts the rest. */
const NAMED_IN_ALERT = 3;

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "A, B, C and 2 others". */
function namedList(names: readonly string[]): string {
  const more = names.length - NAMED_IN_ALERT;
  return `${names.slice(0, NAMED_IN_ALERT).join(", ")}${
    more > 0 ? ` and ${plural(more, "other", "others")}` : ""
  }`;
}

/** "2026-11-28 09:15 UTC": alerts are read by staff in several time zones, so they name the zone. */
export function utcMinute(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

type ConnectionState = "failing" | "untested" | "stale" | "fresh";

function connectionTestState(connection: ActiveConnectionTests, nowMs: number): ConnectionState {
  if (connection.lastTestAt === null) return "untested";
  if (connection.lastTestSucceeded === false) return "failing";
  return nowMs - Date.parse(connection.lastTestAt) > CONNECTION_TEST_FRESHNESS_MS ? "stale" : "fresh";
}

const RETEST = "Run a test from Central Bank Connections.";

function failingAlert(failing: readonly ActiveConnectionTests[]): DashboardAlert {
  const since = (c: ActiveConnectionTests) => utcMinute(c.failingSince ?? c.lastTestAt ?? "");
  const title = failing.length === 1
    ? `Connection ${failing[0].name} failing since ${since(failing[0])}`
    : `${plural(failing.length, "connection", "connections")} failing: ${
      namedList(failing.map((c) => c.name))
    }`;
  const detail = failing.length === 1
    ? "Its last test did not reach the partner."
    : `Failing since: ${failing.map((c) => `${c.name} ${since(c)}`).join("; ")}.`;
  return { id: "failing-connections", tone: "error", title, text: `${detail} ${RETEST}` };
}

function untestedAlert(untested: readonly ActiveConnectionTests[]): DashboardAlert {
  return {
    id: "untested-connections",
    tone: "warning",
    title: `${plural(untested.length, "connection", "connections")} untested: ${
      namedList(untested.map((c) => c.name))
    }`,
    text:
      `Active, but no test has ever been recorded, so nothing is known of the partner's endpoint. ${RETEST}`,
  };
}

function staleAlert(stale: readonly ActiveConnectionTests[]): DashboardAlert {
  return {
    id: "stale-connections",
    tone: "warning",
    title: `${
      plural(stale.length, "connection", "connections")
    } not tested in ${CONNECTION_TEST_FRESHNESS_HOURS} h: ${namedList(stale.map((c) => c.name))}`,
    text: `Last successful test: ${
      stale.map((c) => `${c.name} ${utcMinute(c.lastTestAt ?? "")}`).join("; ")
    }. A connection counts as operational for ${CONNECTION_TEST_FRESHNESS_HOURS} hours after a successful test. ${RETEST}`,
  };
}

/**
 * The connection alerts: "No active connections" when there are none; otherwise one alert for each
 * kind of doubt (failing, never tested, last success older than the window), naming the connections.
 * An empty list means every active connection passed a test within the window.
 */
export function connectionAlerts(
  connections: readonly ActiveConnectionTests[],
  nowMs: number,
): DashboardAlert[] {
  if (connections.length === 0) {
    return [{
      id: "no-active-connections",
      tone: "warning",
      title: "No active connections",
      text: "No central bank connection is active, so no endpoint can be reported operational. " +
        "A connection becomes active after a successful test in Central Bank Connections.",
    }];
  }
  const by = (state: ConnectionState) => connections.filter((c) => connectionTestState(c, nowMs) === state);
  const alerts: DashboardAlert[] = [];
  const failing = by("failing");
  const untested = by("untested");
  const stale = by("stale");
  if (failing.length > 0) alerts.push(failingAlert(failing));
  if (untested.length > 0) alerts.push(untestedAlert(untested));
  if (stale.length > 0) alerts.push(staleAlert(stale));
  return alerts;
}

function attackAlert(attacked: readonly string[]): DashboardAlert {
  return {
    id: "sign-in-attacks",
    tone: "error",
    title: `${plural(attacked.length, "account", "accounts")} under sign-in attack`,
    text: `Repeated failed sign-ins in the last hour for ${
      namedList(attacked)
    }. The Audit Trail lists them as sign_in_under_attack.`,
  };
}

/**
 * Spec 2.3's alerts with their numbers from data: the awaiting-approval alert only when requests
 * wait in the approvals queue (counted as the queue counts them), the institutions not yet active
 * apart, and "All endpoints operational" only when every active connection's last test within CONNECTION_TEST_FRESHNESS_HOURS and the API answered without server errors in the last
 * hour; otherwise the alerts name what is untested or wrong.
 */
export function dashboardAlerts(facts: AlertFacts): DashboardAlert[] {
  const alerts: DashboardAlert[] = [];
  const attacked = facts.accountsUnderAttack ?? [];
  if (attacked.length > 0) alerts.push(attackAlert(attacked));
  if (facts.awaitingApproval > 0) {
    alerts.push({
      id: "awaiting-approval",
      tone: "warning",
      title: `${plural(facts.awaitingApproval, "request", "requests")} awaiting approval`,
      text: "Filed under four-eyes control: a second person decides them on the Approvals screen.",
    });
  }
  if (facts.pendingInstitutions > 0) {
    alerts.push({
      id: "pending-institutions",
      tone: "warning",
      title: `${plural(facts.pendingInstitutions, "institution", "institutions")} pending activation`,
      text: "Registered and not yet active: each becomes active once a request for its approval is approved.",
    });
  }
  const connections = connectionAlerts(facts.activeConnections, facts.nowMs);
  alerts.push(...connections);
  if (facts.apiServerErrorsLastHour > 0) {
    alerts.push({
      id: "api-errors",
      tone: "error",
      title: "API errors in the last hour",
      text: `${plural(facts.apiServerErrorsLastHour, "request", "requests")} of ${
        facts.apiRequestsLastHour.toLocaleString("en-US")
      } answered with a server error.`,
    });
  }
  if (connections.length === 0 && facts.apiServerErrorsLastHour === 0) {
    alerts.push({
      id: "operational",
      tone: "ok",
      title: "All endpoints operational",
      text:
        `Every active connection (${facts.activeConnections.length}) passed its last test within the last ${CONNECTION_TEST_FRESHNESS_HOURS} hours, and the API answered without server errors in the last hour.`,
    });
  }
  return alerts;
}
