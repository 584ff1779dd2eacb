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

/** The facts the system alerts are computed from. */
export interface AlertFacts {
  pendingInstitutions: number;
  /** Partner connections whose most recent test failed. */
  failingConnections: number;
  /** Public API requests in the last hour, and how many of them the server failed (5xx). */
  apiRequestsLastHour: number;
  apiServerErrorsLastHour: number;
  /** E-mail addresses of accounts reported under sign-in attack lately (administrators only). */
  accountsUnderAttack?: readonly string[];
}

export type AlertTone = "warning" | "error" | "ok";

export interface DashboardAlert {
  id: "sign-in-attacks" | "pending-institutions" | "failing-connections" | "api-errors" | "operational";
  tone: AlertTone;
  title: string;
  text: string;
}

/** The attack alert names this many accounts and counts the rest. */
const ATTACKED_ACCOUNTS_NAMED = 3;

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * Spec 2.3's alerts with their numbers from data: the awaiting-approval alert only when something
 * is pending, and "All endpoints operational" only when no connection's last test failed and the
 * API answered without server errors in the last hour; otherwise the alerts name what is wrong.
 */
export function dashboardAlerts(facts: AlertFacts): DashboardAlert[] {
  const alerts: DashboardAlert[] = [];
  const attacked = facts.accountsUnderAttack ?? [];
  if (attacked.length > 0) {
    const named = attacked.slice(0, ATTACKED_ACCOUNTS_NAMED).join(", ");
    const more = attacked.length - ATTACKED_ACCOUNTS_NAMED;
    alerts.push({
      id: "sign-in-attacks",
      tone: "error",
      title: `${plural(attacked.length, "account", "accounts")} under sign-in attack`,
      text: `Repeated failed sign-ins in the last hour for ${named}${
        more > 0 ? ` and ${plural(more, "other", "others")}` : ""
      }. The Audit Trail lists them as sign_in_under_attack.`,
    });
  }
  if (facts.pendingInstitutions > 0) {
    alerts.push({
      id: "pending-institutions",
      tone: "warning",
      title: `${plural(facts.pendingInstitutions, "institution", "institutions")} awaiting approval`,
      text: "Pending registrations need a supervisor's review.",
    });
  }
  if (facts.failingConnections > 0) {
    alerts.push({
      id: "failing-connections",
      tone: "error",
      title: `${plural(facts.failingConnections, "partner connection", "partner connections")} failing`,
      text: "The last test did not reach the partner. Test again from Central Bank Connections.",
    });
  }
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
  if (facts.failingConnections === 0 && facts.apiServerErrorsLastHour === 0) {
    alerts.push({
      id: "operational",
      tone: "ok",
      title: "All endpoints operational",
      text:
        "Every partner connection's last test succeeded and the API answered without server errors in the last hour.",
    });
  }
  return alerts;
}
