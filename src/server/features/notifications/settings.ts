/**
 * The settings the notifications keep: the SMTP server (administrators change it; the password is
 * write-only and encrypted at rest) and each user's choice of kinds to receive by e-mail. Both are
 * audited: they decide where the console's messages go.
 */
import { sql } from "drizzle-orm";
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, type NotificationKind } from "../../../domain/notifications.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Database, Queryable } from "../../db/database.ts";
import { AppError } from "../../http/errors.ts";
import { type MailOutcome, readSmtpSettings, readStoredSmtpSettings, sendMail } from "../../mail/smtp.ts";
import type { Secrets } from "../../secrets.ts";
import type { PreferencesInput, SmtpSettingsInput, SmtpSettingsView } from "./schemas.ts";

const SMTP_AUDIT_ENTITY = "smtp_settings";

export async function smtpSettingsView(db: Queryable): Promise<SmtpSettingsView> {
  const stored = await readStoredSmtpSettings(db);
  if (stored === null) {
    return {
      configured: false,
      host: null,
      port: null,
      tls: null,
      username: null,
      fromAddress: null,
      passwordSet: false,
      updatedAt: null,
    };
  }
  const { passwordCiphertext, ...rest } = stored;
  return { configured: true, ...rest, passwordSet: passwordCiphertext !== null };
}

/**
 * The start launcher lets the server connect only where ALLOW_NET_HOSTS says (--allow-net): a mail
 * server outside it would fail every send, so it is refused when saved, saying what to list. An
 * address needs `address:port`; a host name needs the bare name for its look-up (the address it
 * resolves to is then listed with the port too, or the send fails saying which one).
 */
function assertMayConnect(host: string, port: number): void {
  const isAddress = /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
  const needed = isAddress ? `${host}:${port}` : host;
  if (Deno.permissions.querySync({ name: "net", host: needed }).state === "granted") return;
  const message = `The console may not connect to ${host}: add ${needed} to ALLOW_NET_HOSTS and restart`;
  throw new AppError("validation", `host: ${message}`, { field: "host", fields: { host: message } });
}

export async function updateSmtpSettings(
  db: Database,
  secrets: Secrets,
  actor: Actor,
  input: SmtpSettingsInput,
): Promise<SmtpSettingsView> {
  assertMayConnect(input.host, input.port);
  const ciphertext = typeof input.password === "string" ? await secrets.encrypt(input.password) : null;
  await db.transaction(async (tx) => {
    const before = await smtpSettingsView(tx);
    const stored = await readStoredSmtpSettings(tx);
    const password = input.password === undefined ? stored?.passwordCiphertext ?? null : ciphertext;
    const username = input.username || null;
    const now = new Date().toISOString();
    await tx.run(sql`INSERT INTO smtp_settings (id, host, port, tls, username, password_ciphertext, from_address,
        updated_at, updated_by)
      VALUES (1, ${input.host}, ${input.port}, ${input.tls}, ${username}, ${password}, ${input.fromAddress},
        ${now}, ${actor.userId})
      ON CONFLICT (id) DO UPDATE SET host = excluded.host, port = excluded.port, tls = excluded.tls,
        username = excluded.username, password_ciphertext = excluded.password_ciphertext,
        from_address = excluded.from_address, updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
    const passwordChange = input.password === undefined ? "unchanged" : input.password === null ? "cleared" : "set";
    await recordAudit(tx, actor, {
      entityType: SMTP_AUDIT_ENTITY,
      entityId: "1",
      action: before.configured ? "update" : "create",
      changes: {
        before: before.configured ? { ...before, updatedAt: undefined } : null,
        after: { host: input.host, port: input.port, tls: input.tls, username, fromAddress: input.fromAddress },
        password: passwordChange,
      },
    });
  });
  return await smtpSettingsView(db.read);
}

/** Sends the test message to `to` and records the attempt; answers the mail server's outcome. */
export async function sendTestMail(db: Database, secrets: Secrets, actor: Actor, to: string): Promise<MailOutcome> {
  const settings = await readSmtpSettings(db.read, secrets);
  if (settings === null) {
    throw new AppError("conflict", "No mail server is configured: save the SMTP settings first", { field: "host" });
  }
  const outcome = await sendMail(settings, {
    to,
    subject: "Central Bank Registry Console: test e-mail",
    text: "This is a test e-mail from the Central Bank Registry Console. " +
      "Notifications you choose to receive by e-mail will arrive like this one.",
  });
  await db.transaction(async (tx) => {
    await recordAudit(tx, actor, {
      entityType: SMTP_AUDIT_ENTITY,
      entityId: "1",
      action: "test",
      changes: { to, host: settings.host, port: settings.port, sent: outcome.sent, detail: outcome.detail },
    });
  });
  return outcome;
}

export interface Preference {
  kind: NotificationKind;
  label: string;
  email: boolean;
}

export async function preferencesOf(db: Queryable, userId: string): Promise<Preference[]> {
  const rows = await db.all<{ kind: string }>(
    sql`SELECT kind FROM notification_email_preferences WHERE user_id = ${userId}`,
  );
  const chosen = new Set(rows.map((row) => row.kind));
  return NOTIFICATION_KINDS.map((kind) => ({ kind, label: NOTIFICATION_KIND_LABELS[kind], email: chosen.has(kind) }));
}

export async function updatePreferences(db: Database, actor: Actor, input: PreferencesInput): Promise<Preference[]> {
  const kinds = [...new Set(input.emailKinds)].sort();
  await db.transaction(async (tx) => {
    const before = (await preferencesOf(tx, actor.userId)).filter((p) => p.email).map((p) => p.kind);
    await tx.run(sql`DELETE FROM notification_email_preferences WHERE user_id = ${actor.userId}`);
    const now = new Date().toISOString();
    for (const kind of kinds) {
      await tx.run(sql`INSERT INTO notification_email_preferences (user_id, kind, updated_at)
        VALUES (${actor.userId}, ${kind}, ${now})`);
    }
    await recordAudit(tx, actor, {
      entityType: "user",
      entityId: actor.userId,
      action: "notification_email_preferences",
      changes: { before: { emailKinds: before }, after: { emailKinds: kinds } },
    });
  });
  return await preferencesOf(db.read, actor.userId);
}
