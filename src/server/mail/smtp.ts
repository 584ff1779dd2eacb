/**
 * mail/ is the console's one way to send e-mail: the SMTP settings an administrator keeps (the
 * password encrypted at rest with deps.secrets), and a send through nodemailer bounded in time at
 * every step, so that a mail server that is slow or gone costs one bounded wait and an honest answer,
 * never a hung worker. Nothing here retries: the caller records the outcome.
 */
import nodemailer from "nodemailer";
import { sql } from "drizzle-orm";
import type { Queryable } from "../db/database.ts";
import type { Secrets } from "../secrets.ts";

/** Connecting to the mail server, its greeting, and any silence on the socket after that. */
export const SMTP_CONNECT_TIMEOUT_MS = 5_000;
export const SMTP_GREETING_TIMEOUT_MS = 5_000;
export const SMTP_SOCKET_TIMEOUT_MS = 10_000;
/** One whole send, from connecting to the server's answer to the message. */
export const SMTP_SEND_TIMEOUT_MS = 15_000;
/** The mail server's answer is kept (and shown) up to this length. */
export const MAX_SMTP_DETAIL_LENGTH = 500;

export type SmtpTlsMode = "none" | "starttls" | "tls";

export interface SmtpSettings {
  host: string;
  port: number;
  tls: SmtpTlsMode;
  username: string | null;
  password: string | null;
  fromAddress: string;
}

export interface StoredSmtpSettings extends Omit<SmtpSettings, "password"> {
  [column: string]: unknown;
  passwordCiphertext: string | null;
  updatedAt: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export type MailOutcome = { sent: true; detail: string } | { sent: false; detail: string };

export async function readStoredSmtpSettings(db: Queryable): Promise<StoredSmtpSettings | null> {
  const [row] = await db.all<StoredSmtpSettings>(sql`SELECT host, port, tls, username,
    password_ciphertext AS passwordCiphertext, from_address AS fromAddress, updated_at AS updatedAt
    FROM smtp_settings WHERE id = 1`);
  return row ?? null;
}

/** The settings to send with, the password decrypted; null while no mail server is configured. */
export async function readSmtpSettings(db: Queryable, secrets: Secrets): Promise<SmtpSettings | null> {
  const stored = await readStoredSmtpSettings(db);
  if (stored === null) return null;
  const { passwordCiphertext, updatedAt: _updatedAt, ...settings } = stored;
  const password = passwordCiphertext === null ? null : await secrets.decrypt(passwordCiphertext);
  return { ...settings, password };
}

function transportOf(settings: SmtpSettings) {
  return nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.tls === "tls",
    requireTLS: settings.tls === "starttls",
    ignoreTLS: settings.tls === "none",
    auth: settings.username ? { user: settings.username, pass: settings.password ?? "" } : undefined,
    connectionTimeout: SMTP_CONNECT_TIMEOUT_MS,
    greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
    socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
  });
}

const clipped = (text: string) => text.slice(0, MAX_SMTP_DETAIL_LENGTH);

/** Sends one message; resolves with the server's answer or the failure, never throws, never waits past the bound. */
export async function sendMail(settings: SmtpSettings, message: MailMessage): Promise<MailOutcome> {
  const transport = transportOf(settings);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<MailOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ sent: false, detail: `The mail server did not answer within ${SMTP_SEND_TIMEOUT_MS} ms` }),
      SMTP_SEND_TIMEOUT_MS,
    );
  });
  const sending = transport.sendMail({ from: settings.fromAddress, ...message }).then(
    (info): MailOutcome => ({ sent: true, detail: clipped(String(info.response ?? "accepted")) }),
    (error: unknown): MailOutcome => ({
      sent: false,
      detail: clipped(error instanceof Error ? error.message : String(error)),
    }),
  );
  try {
    return await Promise.race([sending, timedOut]);
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
