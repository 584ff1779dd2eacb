/**
 * events/ is the one place where a change tells others it happened: the notification feed and the
 * webhook deliveries read the outbox, no feature calls them. A mutation calls `publishEvent` inside
 * its own transaction, next to its audit row, so an event exists exactly when its change committed and
 * a rolled-back change notifies no one. Readers follow `seq` (monotonic on the primary, replicated as is).
 */
import type { Role } from "../../domain/access.ts";
import { NOTIFICATION_KINDS } from "../../domain/notifications.ts";
import { WEBHOOK_EVENT_KINDS } from "../../domain/webhooks.ts";
import { statementsOf, type Writer } from "../db/database.ts";

/**
 * Every kind a feature may publish; consumers decide which they deliver: the kinds people receive
 * (src/domain/notifications.ts) and those downstream systems subscribe to (src/domain/webhooks.ts).
 * A kind in both lists (a directory edition's publication) is listed once.
 */
export const EVENT_KINDS = [...new Set([...NOTIFICATION_KINDS, ...WEBHOOK_EVENT_KINDS])] as (
  | typeof NOTIFICATION_KINDS[number]
  | typeof WEBHOOK_EVENT_KINDS[number]
)[];
export type EventKind = typeof EVENT_KINDS[number];

export const EVENT_SUMMARY_MAX_LENGTH = 500;

/** Who sees an event in their feed: one user, everyone holding one of the roles, or both; `exclude` never. */
export interface EventAudience {
  userId?: string;
  roles?: readonly Role[];
  exclude?: string;
}

export interface EventInput {
  kind: EventKind;
  subjectType: string;
  subjectId: string;
  /** One sentence a person reads in the bell and in an e-mail; no secret, no card number. */
  summary: string;
  /** The SPA path of the subject, when there is a screen for it. */
  link?: string;
  /** What a downstream system needs (webhooks' payload); plain JSON. */
  data?: Record<string, unknown>;
  /** Absent: nobody's feed (an event for webhooks only). */
  audience?: EventAudience;
}

/** Appends the event in the caller's transaction; returns its id. */
export async function publishEvent(writer: Writer, event: EventInput, now = new Date()): Promise<string> {
  const id = crypto.randomUUID();
  const summary = event.summary.length > EVENT_SUMMARY_MAX_LENGTH
    ? `${event.summary.slice(0, EVENT_SUMMARY_MAX_LENGTH - 1)}…`
    : event.summary;
  const roles = event.audience?.roles;
  await statementsOf(writer).run(
    `INSERT INTO events (id, kind, subject_type, subject_id, summary, link, data, recipient_user_id,
      recipient_roles, excluded_user_id, occurred_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      event.kind,
      event.subjectType,
      event.subjectId,
      summary,
      event.link ?? null,
      JSON.stringify(event.data ?? {}),
      event.audience?.userId ?? null,
      roles === undefined || roles.length === 0 ? null : JSON.stringify(roles),
      event.audience?.exclude ?? null,
      now.toISOString(),
    ],
  );
  return id;
}

/**
 * The event once for each of the people named (a maker and a checker, say), each in their own feed;
 * a person named twice, or not at all (null), hears it once or not.
 */
export async function publishToEach(
  writer: Writer,
  userIds: readonly (string | null)[],
  event: Omit<EventInput, "audience">,
): Promise<void> {
  const people = new Set(userIds.filter((id): id is string => id !== null));
  for (const userId of people) await publishEvent(writer, { ...event, audience: { userId } });
}
