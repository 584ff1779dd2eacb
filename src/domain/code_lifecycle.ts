/**
 * The lifecycle of routing codes, BICs and national routing entries over time (docs/codes.md): which
 * status changes are allowed, and which dated versions one change becomes. Pure: the server records
 * the versions, this decides them.
 *
 * @module
 */
import { err, ok, type Result } from "./result.ts";

/** What a code may be asked to become; "terminated" is shown from terminatedAt on, never stored as status. */
export const CODE_LIFECYCLE_STATUSES = ["active", "suspended", "inactive", "terminated"] as const;
export type CodeLifecycleStatus = typeof CODE_LIFECYCLE_STATUSES[number];

/** A national routing participant's statuses (spec 3). */
export const PARTICIPANT_STATUSES = ["active", "inactive", "suspended"] as const;
export type ParticipantStatus = typeof PARTICIPANT_STATUSES[number];

/** A code as it stands at the instant a change takes effect. */
export interface CodeState {
  key: string;
  status: string;
  terminatedAt: string | null;
}

export interface CodeStatusChange {
  status: CodeLifecycleStatus;
  /** ISO instant the change takes effect (already bounded by effectiveInstant). */
  effectiveFrom: string;
  /** ISO instant a suspension ends; only with "suspended". */
  until: string | null;
  /** The code or BIC that succeeds a terminated one; only with "terminated". */
  successor: string | null;
}

/** One dated version a change becomes: what it sets from `validFrom` and how the history says it. */
export interface PlannedVersion {
  validFrom: string;
  changes: Record<string, unknown>;
  summary: string;
}

/** The status shown at `at`: "terminated" from terminatedAt on, else the stored operating status. */
export function codeStatusAt(state: { status: string; terminatedAt: string | null }, at: string): string {
  return state.terminatedAt !== null && state.terminatedAt <= at ? "terminated" : state.status;
}

/** "2027-03-01" for a midnight instant, else the instant itself: how summaries name a date. */
export function instantLabel(at: string): string {
  return at.endsWith("T00:00:00.000Z") ? at.slice(0, 10) : at;
}

function checkChange(state: CodeState, change: CodeStatusChange): Result<null> {
  if (state.terminatedAt !== null) {
    return err(
      "invalid_transition",
      `${state.key} is terminated from ${
        instantLabel(state.terminatedAt)
      }; a terminated code does not change`,
      "status",
    );
  }
  if (change.status === state.status) {
    return err("invalid_transition", `${state.key} is already ${state.status} then`, "status");
  }
  if (change.until !== null && change.status !== "suspended") {
    return err("until_without_suspension", "Only a suspension has an end date", "until");
  }
  if (change.until !== null && change.until <= change.effectiveFrom) {
    return err("until_not_after_start", "The suspension must end after it starts", "until");
  }
  if (change.successor !== null && change.status !== "terminated") {
    return err("successor_without_termination", "Only a terminated code has a successor", "successor");
  }
  if (change.successor === state.key) {
    return err("successor_is_itself", "A code cannot succeed itself", "successor");
  }
  return ok(null);
}

/**
 * The versions one status change becomes. A termination announces the deletion at once (now) and
 * takes effect at its date; a suspension with an end returns to the status held before at that end.
 */
export function planCodeStatusChange(
  state: CodeState,
  change: CodeStatusChange,
  successorField: "successorCode" | "successorBic",
  nowIso: string,
): Result<PlannedVersion[]> {
  const checked = checkChange(state, change);
  if (!checked.ok) return checked;
  const from = change.effectiveFrom;
  if (change.status === "terminated") {
    const successorText = change.successor === null ? "" : `, succeeded by ${change.successor}`;
    const termination = { terminatedAt: from, [successorField]: change.successor };
    if (from <= nowIso) {
      return ok([{
        validFrom: from,
        changes: { ...termination, deletionAnnouncedAt: nowIso },
        summary: `Terminated${successorText}`,
      }]);
    }
    return ok([
      {
        validFrom: nowIso,
        changes: { deletionAnnouncedAt: nowIso },
        summary: `Deletion announced for ${instantLabel(from)}`,
      },
      { validFrom: from, changes: termination, summary: `Terminated${successorText}` },
    ]);
  }
  const versions: PlannedVersion[] = [
    {
      validFrom: from,
      changes: { status: change.status },
      summary: `Status ${state.status} → ${change.status}`,
    },
  ];
  if (change.until !== null) {
    versions.push({
      validFrom: change.until,
      changes: { status: state.status },
      summary: `Suspension ends: status → ${state.status}`,
    });
  }
  return ok(versions);
}

/** A national routing participant's status change from a date: one version, refused when nothing changes. */
export function planParticipantStatusChange(
  current: { key: string; participantStatus: string },
  status: ParticipantStatus,
  effectiveFrom: string,
): Result<PlannedVersion> {
  if (current.participantStatus === status) {
    return err("invalid_transition", `${current.key} is already ${status} then`, "participantStatus");
  }
  return ok({
    validFrom: effectiveFrom,
    changes: { participantStatus: status },
    summary: `Participant status ${current.participantStatus} → ${status}`,
  });
}

/**
 * A record registered to take effect later is stored inactive now and becomes `status` at its
 * date, so that it is not in force before: the version that switches it on.
 */
export function activationVersion(
  field: "status" | "participantStatus",
  status: string,
  at: string,
): PlannedVersion {
  return {
    validFrom: at,
    changes: { [field]: status },
    summary: `In force from ${instantLabel(at)}: ${status}`,
  };
}
