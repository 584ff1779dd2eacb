/**
 * Partnership expedition requests (spec 2.13): which partners can be asked to expedite, the method,
 * priority or escalation type each offers, and how a recorded request moves from open to done or
 * cancelled. The confirmation texts are the spec's.
 *
 * @module
 */

export const EXPEDITION_PARTNERS = ["swift", "visa", "executive"] as const;
export type ExpeditionPartner = typeof EXPEDITION_PARTNERS[number];

/** The {partner} of the spec's confirmation text. */
export const EXPEDITION_PARTNER_NAMES: Readonly<Record<ExpeditionPartner, string>> = {
  swift: "SWIFT",
  visa: "Visa",
  executive: "Executive",
};

export interface ExpeditionMethod {
  value: string;
  label: string;
}

/** Each partner's choices, in the order the screen offers them: method, priority level, escalation type. */
export const EXPEDITION_METHODS: Readonly<Record<ExpeditionPartner, readonly ExpeditionMethod[]>> = {
  swift: [
    { value: "executive-contact", label: "Executive Contact" },
    { value: "urgent-documentation", label: "Urgent Documentation" },
    { value: "priority-review", label: "Priority Review" },
    { value: "regulatory-priority", label: "Regulatory Priority" },
  ],
  visa: [
    { value: "standard", label: "Standard" },
    { value: "priority", label: "Priority" },
    { value: "urgent", label: "Urgent" },
    { value: "emergency", label: "Emergency" },
  ],
  executive: [
    { value: "regulatory-urgent", label: "Regulatory Urgent" },
    { value: "sovereign-priority", label: "Sovereign Priority" },
    { value: "emergency-operations", label: "Emergency Operations" },
    { value: "diplomatic-channels", label: "Diplomatic Channels" },
  ],
};

/** A justification is read by the partner's account team: a paragraph, not a dossier. */
export const MAX_JUSTIFICATION_LENGTH = 2000;
/** A note on a status change says what happened, in a sentence or two. */
export const MAX_STATUS_NOTE_LENGTH = 500;

export const EXPEDITION_STATUSES = ["open", "in_progress", "done", "cancelled"] as const;
export type ExpeditionStatus = typeof EXPEDITION_STATUSES[number];

export const EXPEDITION_STATUS_LABELS: Readonly<Record<ExpeditionStatus, string>> = {
  open: "Open",
  in_progress: "In Progress",
  done: "Done",
  cancelled: "Cancelled",
};

/** The statuses a request can move to: nothing moves back to open. */
export type ExpeditionMove = Exclude<ExpeditionStatus, "open">;

/** Done and cancelled are final: a new expedition is a new request, so the record of the old one stays. */
const NEXT_STATUSES: Readonly<Record<ExpeditionStatus, readonly ExpeditionMove[]>> = {
  open: ["in_progress", "cancelled"],
  in_progress: ["done", "cancelled"],
  done: [],
  cancelled: [],
};

export function nextExpeditionStatuses(from: ExpeditionStatus): readonly ExpeditionMove[] {
  return NEXT_STATUSES[from];
}

export function mayMoveExpedition(from: ExpeditionStatus, to: ExpeditionStatus): boolean {
  return (NEXT_STATUSES[from] as readonly ExpeditionStatus[]).includes(to);
}

export function isExpeditionMethod(partner: ExpeditionPartner, method: string): boolean {
  return EXPEDITION_METHODS[partner].some((choice) => choice.value === method);
}

export function expeditionMethodLabel(partner: ExpeditionPartner, method: string): string {
  return EXPEDITION_METHODS[partner].find((choice) => choice.value === method)?.label ?? method;
}

/** Spec 2.13's confirmation, shown once the request is recorded. */
export function expeditionConfirmation(partner: ExpeditionPartner): { title: string; description: string } {
  return {
    title: "Expedition Request Initiated",
    description: `Priority escalation submitted for ${EXPEDITION_PARTNER_NAMES[partner]} partnership`,
  };
}
