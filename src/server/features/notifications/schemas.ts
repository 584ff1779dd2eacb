/** The notification feed's, preferences' and SMTP settings' request and answer shapes. */
import { z } from "zod";
import { NOTIFICATION_KINDS } from "../../../domain/notifications.ts";

/** A page of the feed holds at most this many entries. */
export const MAX_FEED_PAGE = 100;
export const DEFAULT_FEED_PAGE = 20;

export const feedQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_FEED_PAGE).default(DEFAULT_FEED_PAGE),
  /** The page after the one that ended with this seq (the previous answer's `nextBefore`). */
  before: z.coerce.number().int().min(1).optional(),
});
export type FeedQuery = z.infer<typeof feedQuery>;

export const notificationIdParam = z.object({ id: z.uuid() });

export interface Notification {
  id: string;
  seq: number;
  kind: string;
  subjectType: string;
  subjectId: string;
  summary: string;
  link: string | null;
  occurredAt: string;
  read: boolean;
}

export interface Feed {
  items: Notification[];
  unreadCount: number;
  /** Pass as `before` for the next page; null on the last page. */
  nextBefore: number | null;
}

export const preferencesSchema = z.object({
  emailKinds: z.array(z.enum(NOTIFICATION_KINDS)).max(NOTIFICATION_KINDS.length),
});
export type PreferencesInput = z.infer<typeof preferencesSchema>;

export const SMTP_TLS_MODES = ["none", "starttls", "tls"] as const;

/** A host name or an IPv4 address; no scheme, no port, no path. */
const HOST_PATTERN = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export const smtpSettingsSchema = z.object({
  host: z.string().trim().regex(HOST_PATTERN, "A host name or IP address, without scheme or port"),
  port: z.number().int().min(1).max(65_535),
  tls: z.enum(SMTP_TLS_MODES),
  username: z.string().trim().max(255).nullable().optional(),
  /** Write-only: a string sets it, null clears it, absent keeps the stored one. */
  password: z.string().min(1).max(1_024).nullable().optional(),
  fromAddress: z.email().max(255),
});
export type SmtpSettingsInput = z.infer<typeof smtpSettingsSchema>;

export interface SmtpSettingsView {
  configured: boolean;
  host: string | null;
  port: number | null;
  tls: typeof SMTP_TLS_MODES[number] | null;
  username: string | null;
  fromAddress: string | null;
  passwordSet: boolean;
  updatedAt: string | null;
}
