/**
 * The e-mail sender, run at headquarters or on a standalone node: it follows the outbox by seq and
 * e-mails each new event to the users it is addressed to who chose its kind, one bounded send at a
 * time, and records each e-mail's outcome. A batch is claimed by moving the cursor first, in its own
 * transaction, so two processes never send the same event; an e-mail that fails is recorded and
 * logged, not retried, and the event stays in everyone's feed. No request ever waits on a send.
 */
import { sql } from "drizzle-orm";
import { maskCardNumbersOutsideIdentifiers } from "../../../domain/redaction.ts";
import type { Database } from "../../db/database.ts";
import type { AppDeps } from "../../http/context.ts";
import { type MailOutcome, readSmtpSettings, sendMail, type SmtpSettings } from "../../mail/smtp.ts";
import { type PeriodicTask, startPeriodic } from "../../periodic.ts";
import type { Secrets } from "../../secrets.ts";

export const EMAIL_POLL_INTERVAL_MS = 2_000;
/** Events claimed per run. */
export const EMAIL_BATCH_EVENTS = 20;
/** Recipients e-mailed per event at most. */
export const MAX_EMAIL_RECIPIENTS_PER_EVENT = 200;
export const NO_MAIL_SERVER_DETAIL = "No mail server is configured";

interface OutboxEvent {
  [column: string]: unknown;
  seq: number;
  kind: string;
  summary: string;
  link: string | null;
  occurredAt: string;
  recipientUserId: string | null;
  recipientRoles: string | null;
  excludedUserId: string | null;
}

interface Recipient {
  [column: string]: unknown;
  id: string;
  email: string;
}

/** Moves the cursor past the next batch and returns it; empty when nothing new or another process took it. */
async function claimBatch(db: Database): Promise<OutboxEvent[]> {
  return await db.transaction(async (tx) => {
    const now = new Date().toISOString();
    // The first run starts at the present: the sender never e-mails the history before it existed.
    await tx.run(sql`INSERT INTO notification_email_cursor (id, last_seq, updated_at)
      VALUES (1, (SELECT coalesce(max(seq), 0) FROM events), ${now}) ON CONFLICT (id) DO NOTHING`);
    const events = await tx.all<OutboxEvent>(sql`SELECT e.seq, e.kind, e.summary, e.link,
        e.occurred_at AS occurredAt, e.recipient_user_id AS recipientUserId, e.recipient_roles AS recipientRoles,
        e.excluded_user_id AS excludedUserId
      FROM events e WHERE e.seq > (SELECT last_seq FROM notification_email_cursor WHERE id = 1)
        AND (e.recipient_user_id IS NOT NULL OR e.recipient_roles IS NOT NULL)
      ORDER BY e.seq LIMIT ${EMAIL_BATCH_EVENTS}`);
    if (events.length > 0) {
      await tx.run(sql`UPDATE notification_email_cursor SET last_seq = ${events[events.length - 1].seq},
        updated_at = ${now} WHERE id = 1`);
    }
    return events;
  });
}

/**
 * The enabled users the event is addressed to who chose to receive its kind by e-mail: the feed's
 * rule (service.ts addressedTo) asked from the event's side.
 */
async function recipientsOf(db: Database, event: OutboxEvent): Promise<Recipient[]> {
  return await db.read.all<Recipient>(sql`SELECT u.id, u.email FROM users u
    JOIN notification_email_preferences p ON p.user_id = u.id AND p.kind = ${event.kind}
    WHERE u.disabled_at IS NULL AND (${event.excludedUserId} IS NULL OR u.id <> ${event.excludedUserId})
      AND (u.id = ${event.recipientUserId} OR EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id
        AND r.role IN (SELECT value FROM json_each(coalesce(${event.recipientRoles}, '[]')))))
    ORDER BY u.id LIMIT ${MAX_EMAIL_RECIPIENTS_PER_EVENT}`);
}

/** The e-mail: the event's one sentence and where to look; no secret, and card numbers masked all the same. */
export function messageOf(event: Pick<OutboxEvent, "summary" | "link" | "occurredAt">) {
  const summary = maskCardNumbersOutsideIdentifiers(event.summary);
  const where = event.link ? `\n\nOpen it in the console: ${event.link}` : "";
  return {
    subject: `Central Bank Registry Console: ${summary.length > 120 ? `${summary.slice(0, 119)}…` : summary}`,
    text: `${summary}\n\nAt ${event.occurredAt}.${where}\n\n` +
      "You receive this e-mail because you chose this kind of notification under Settings, Notifications.",
  };
}

async function deliver(db: Database, settings: SmtpSettings | null, event: OutboxEvent): Promise<void> {
  const recipients = await recipientsOf(db, event);
  if (recipients.length === 0) return;
  const outcomes: { recipient: Recipient; outcome: MailOutcome }[] = [];
  for (const recipient of recipients) {
    const outcome: MailOutcome = settings === null
      ? { sent: false, detail: NO_MAIL_SERVER_DETAIL }
      : await sendMail(settings, { to: recipient.email, ...messageOf(event) });
    if (!outcome.sent) console.error(`E-mail of event ${event.seq} to ${recipient.email} failed: ${outcome.detail}`);
    outcomes.push({ recipient, outcome });
  }
  const now = new Date().toISOString();
  await db.writeBatch(outcomes.map(({ recipient, outcome }) => ({
    sql: `INSERT INTO notification_email_deliveries (event_seq, user_id, recipient, outcome, detail, attempted_at)
      VALUES (?, ?, ?, ?, ?, ?)`,
    args: [event.seq, recipient.id, recipient.email, outcome.sent ? "sent" : "failed", outcome.detail, now],
  })));
}

/** One run: claims a batch and e-mails it; returns how many events it claimed. */
export async function sendPendingEmails(db: Database, secrets: Secrets): Promise<number> {
  const events = await claimBatch(db);
  if (events.length === 0) return 0;
  const settings = await readSmtpSettings(db.read, secrets);
  for (const event of events) await deliver(db, settings, event);
  return events.length;
}

export function startEmailSender(deps: Pick<AppDeps, "db" | "secrets">): PeriodicTask {
  return startPeriodic("Notification e-mail", EMAIL_POLL_INTERVAL_MS, async () => {
    while (await sendPendingEmails(deps.db, deps.secrets) === EMAIL_BATCH_EVENTS) {
      // A full batch: more may wait, sent now rather than one batch per interval.
    }
  });
}
