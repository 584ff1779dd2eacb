/**
 * Financial institutions (spec 3 and 4): the enumerations, the field limits and the status
 * lifecycle. The spec leaves transitions to the server; this module is that decision:
 * pending → active (approval), active → suspended, suspended → active (reactivation), and from any
 * of them → terminated, which is final. Each may take effect from a date (effective_dating.ts).
 * Pure module: no I/O.
 */
import { ok, type Result } from "./result.ts";

export const INSTITUTION_TYPES = [
  "commercial",
  "savings",
  "credit_union",
  "development",
  "investment",
] as const;
export type InstitutionType = (typeof INSTITUTION_TYPES)[number];

export const INSTITUTION_STATUSES = ["pending", "active", "suspended"] as const;
export type InstitutionStatus = (typeof INSTITUTION_STATUSES)[number];

/**
 * The statuses the API speaks: a stored status, or "terminated" from the institution's terminatedAt
 * on (the status column keeps the last operating status beside it).
 */
export const INSTITUTION_LIFECYCLE_STATUSES = [...INSTITUTION_STATUSES, "terminated"] as const;
export type InstitutionLifecycleStatus = (typeof INSTITUTION_LIFECYCLE_STATUSES)[number];

/** The status in force at `at` (ISO instant): terminated once its termination instant has come. */
export function lifecycleStatus(
  status: InstitutionStatus,
  terminatedAt: string | null,
  at: string,
): InstitutionLifecycleStatus {
  return terminatedAt !== null && terminatedAt <= at ? "terminated" : status;
}

export const SWIFT_MEMBERSHIP_TYPES = ["full", "subgroup", "correspondent"] as const;
export type SwiftMembershipType = (typeof SWIFT_MEMBERSHIP_TYPES)[number];

/** Every institution starts here; the API refuses any other status on creation. */
export const INITIAL_INSTITUTION_STATUS: InstitutionStatus = "pending";

export const MAX_INSTITUTION_NAME_LENGTH = 255;
export const MAX_REGISTRATION_NUMBER_LENGTH = 100;
export const MAX_LICENSE_NUMBER_LENGTH = 100;
/** The spec gives address no limit; a postal address never needs more, and the bound keeps rows small. */
export const MAX_ADDRESS_LENGTH = 1000;
export const MAX_PHONE_NUMBER_LENGTH = 50;
export const MAX_EMAIL_ADDRESS_LENGTH = 255;
export const MIN_NUMBER_OF_BRANCHES = 1;
/** Spec 5: integers are 32-bit. */
export const MAX_NUMBER_OF_BRANCHES = 2_147_483_647;
export const DEFAULT_NUMBER_OF_BRANCHES = 1;

const TRANSITIONS: Readonly<Record<InstitutionLifecycleStatus, readonly InstitutionLifecycleStatus[]>> = {
  pending: ["active", "terminated"],
  active: ["suspended", "terminated"],
  suspended: ["active", "terminated"],
  terminated: [],
};

export function isInstitutionStatus(value: string): value is InstitutionStatus {
  return (INSTITUTION_STATUSES as readonly string[]).includes(value);
}

/** The statuses an institution in `from` may move to next. */
export function allowedStatusTransitions(from: InstitutionLifecycleStatus): readonly InstitutionLifecycleStatus[] {
  return TRANSITIONS[from];
}

export interface TransitionRefusal {
  code: "invalid_transition";
  message: string;
  field: "status";
  from: InstitutionLifecycleStatus;
  to: InstitutionLifecycleStatus;
  allowed: readonly InstitutionLifecycleStatus[];
}

/** Accepts `from → to` only when the lifecycle allows it; staying in the same status is refused too. */
export function checkStatusTransition(
  from: InstitutionLifecycleStatus,
  to: InstitutionLifecycleStatus,
): Result<{ from: InstitutionLifecycleStatus; to: InstitutionLifecycleStatus }, TransitionRefusal> {
  const allowed = allowedStatusTransitions(from);
  if (allowed.includes(to)) return ok({ from, to });
  return {
    ok: false,
    error: {
      code: "invalid_transition",
      message: allowed.length === 0
        ? `An institution that is ${from} stays ${from}: termination is final`
        : `An institution that is ${from} cannot become ${to}; allowed: ${allowed.join(", ")}`,
      field: "status",
      from,
      to,
      allowed,
    },
  };
}

/**
 * The row action the console offers for each status, named for what it does; `naming` leads the
 * institution's name in the button's accessible name and the dialog's title.
 */
export const STATUS_ACTIONS: Readonly<
  Record<InstitutionStatus, { label: string; naming: string; to: InstitutionStatus; done: string }>
> = {
  // Nobody approves alone: the action files a request that a second person approves.
  pending: { label: "Request approval", naming: "Request approval of", to: "active", done: "Institution approved" },
  active: { label: "Suspend", naming: "Suspend", to: "suspended", done: "Institution suspended" },
  suspended: { label: "Reactivate", naming: "Reactivate", to: "active", done: "Institution reactivated" },
};

/** A status change's reason, recorded in its audit row, is at most this long. */
export const MAX_STATUS_CHANGE_REASON_LENGTH = 1_000;

/** "branch" for one, "branches" otherwise (spec 2.3). */
export function branchLabel(count: number): string {
  return `${count} ${count === 1 ? "branch" : "branches"}`;
}
