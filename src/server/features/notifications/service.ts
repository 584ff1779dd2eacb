/**
 * Each user's notification feed over the event outbox: the events addressed to them (by id, or by a
 * role they hold now) and never those that exclude them, newest first, with their read state. Read
 * state is the user's own: a "read through" mark set by "Mark all read", and one row per event read
 * beyond it. Marking read is personal UI state: one transaction, no audit row (docs/notifications.md).
 */
import { type SQL, sql } from "drizzle-orm";
import type { Role } from "../../../domain/access.ts";
import type { Database, Queryable } from "../../db/database.ts";
import { notFound } from "../../http/errors.ts";
import type { Feed, FeedQuery, Notification } from "./schemas.ts";

/** The unread count stops at this; the bell shows "99+" long before. */
export const UNREAD_COUNT_CAP = 1_000;

export interface Reader {
  id: string;
  roles: readonly Role[];
}

/**
 * The events `reader` sees (alias e): never one that excludes them, else one addressed to them or to
 * a role they hold now. The e-mail sender (email_sender.ts) asks the same from the event's side.
 */
export function addressedTo(reader: Reader): SQL {
  return sql`(e.excluded_user_id IS NULL OR e.excluded_user_id <> ${reader.id})
    AND (e.recipient_user_id = ${reader.id} OR (e.recipient_roles IS NOT NULL AND EXISTS (
      SELECT 1 FROM json_each(e.recipient_roles) r WHERE r.value IN (SELECT value FROM json_each(${
    JSON.stringify(reader.roles)
  })))))`;
}

/** Whether event e counts as read for the reader. */
const isRead = (userId: string) =>
  sql`(e.seq <= coalesce((SELECT m.read_through_seq FROM notification_read_marks m WHERE m.user_id = ${userId}), 0)
    OR EXISTS (SELECT 1 FROM notification_reads nr WHERE nr.user_id = ${userId} AND nr.event_seq = e.seq))`;

/** A feed row as read: `read` is SQLite's 0 or 1. */
interface FeedRow extends Omit<Notification, "read"> {
  [column: string]: unknown;
  read: number;
}

export async function unreadCount(db: Queryable, reader: Reader): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT 1 FROM events e
    WHERE ${addressedTo(reader)} AND NOT ${isRead(reader.id)} LIMIT ${UNREAD_COUNT_CAP})`);
  return row?.n ?? 0;
}

/** Events for the reader with seq above `afterSeq`, oldest first (the live stream's catch-up). */
export async function notificationsAfter(db: Queryable, reader: Reader, afterSeq: number, limit: number) {
  const rows = await db.all<FeedRow>(sql`${feedSelect(reader)} AND e.seq > ${afterSeq} ORDER BY e.seq LIMIT ${limit}`);
  return rows.map(toNotification);
}

function feedSelect(reader: Reader): SQL {
  return sql`SELECT e.id, e.seq, e.kind, e.subject_type AS subjectType, e.subject_id AS subjectId, e.summary,
      e.link, e.occurred_at AS occurredAt, ${isRead(reader.id)} AS read
    FROM events e WHERE ${addressedTo(reader)}`;
}

function toNotification(row: FeedRow): Notification {
  return { ...row, read: row.read === 1 };
}

export async function feedOf(db: Queryable, reader: Reader, query: FeedQuery): Promise<Feed> {
  const before = query.before === undefined ? sql`` : sql` AND e.seq < ${query.before}`;
  const rows = await db.all<FeedRow>(
    sql`${feedSelect(reader)}${before} ORDER BY e.seq DESC LIMIT ${query.limit + 1}`,
  );
  const items = rows.slice(0, query.limit).map(toNotification);
  return {
    items,
    unreadCount: await unreadCount(db, reader),
    nextBefore: rows.length > query.limit ? items[items.length - 1].seq : null,
  };
}

/** Marks one event read for the reader; 404 for an event that is not theirs to see. */
export async function markRead(db: Database, reader: Reader, eventId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [event] = await tx.all<{ seq: number }>(
      sql`SELECT e.seq FROM events e WHERE e.id = ${eventId} AND ${addressedTo(reader)}`,
    );
    if (!event) throw notFound("Notification");
    await tx.run(sql`INSERT INTO notification_reads (user_id, event_seq, read_at)
      VALUES (${reader.id}, ${event.seq}, ${new Date().toISOString()}) ON CONFLICT DO NOTHING`);
  });
}

/** Everything published so far counts as read for the reader; the single reads below the mark go. */
export async function markAllRead(db: Database, reader: Reader): Promise<void> {
  await db.transaction(async (tx) => {
    const [top] = await tx.all<{ seq: number | null }>(sql`SELECT max(seq) AS seq FROM events`);
    const through = top?.seq ?? 0;
    await tx.run(sql`INSERT INTO notification_read_marks (user_id, read_through_seq, updated_at)
      VALUES (${reader.id}, ${through}, ${new Date().toISOString()})
      ON CONFLICT (user_id) DO UPDATE SET read_through_seq = max(read_through_seq, excluded.read_through_seq),
        updated_at = excluded.updated_at`);
    await tx.run(sql`DELETE FROM notification_reads WHERE user_id = ${reader.id} AND event_seq <= ${through}`);
  });
}

/** The newest seq in the outbox: where a new stream starts listening. */
export async function latestSeq(db: Queryable): Promise<number> {
  const [top] = await db.all<{ seq: number | null }>(sql`SELECT max(seq) AS seq FROM events`);
  return top?.seq ?? 0;
}
