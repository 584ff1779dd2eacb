/**
 * The System Settings row (db/migrations/1430_system_settings.sql), read by whatever code applies a
 * setting (session timeout, password checks, new API keys, reports, the backup and retention jobs)
 * and written by the settings routes and the approval of a security change. Features cannot import
 * each other, so both sides live here.
 *
 * Reads answer from memory while the "settings" change epoch has not moved (db/change_epochs.ts):
 * the update trigger bumps it, on the primary and so, once replicated, on every regional replica,
 * whose epochs a rebuild offsets; a change made by any process applies to the next request.
 */
import { sql } from "drizzle-orm";
import { z } from "zod";
import {
  API_RATE_LIMIT_PER_HOUR,
  BACKUP_FREQUENCIES,
  BACKUP_RETENTION_COPIES,
  type BackupFrequency,
  COUNTRY_CODES,
  LANGUAGES,
  minimumPasswordLength,
  PASSWORD_POLICIES,
  type PasswordPolicy,
  RETENTION_DAYS,
  SESSION_TIMEOUT_MINUTES,
  SETTINGS_CURRENCIES,
  TIMEZONES,
} from "../../domain/system_settings.ts";
import { type Actor, recordAudit } from "../audit/trail.ts";
import { assertMayActAlone, grantNote, type GrantOrigin } from "../auth/role_grants.ts";
import type { Epochs } from "../db/change_epochs.ts";
import type { Database, Queryable } from "../db/database.ts";
import { requiredEnum } from "../http/validation.ts";

export interface SystemSettings {
  systemName: string;
  systemDescription: string;
  countryCode: typeof COUNTRY_CODES[number];
  currency: typeof SETTINGS_CURRENCIES[number];
  timezone: typeof TIMEZONES[number];
  language: typeof LANGUAGES[number];
  /** Minutes; what a session gets is capped by SESSION_IDLE_MINUTES (effectiveIdleMinutes). */
  sessionTimeout: number;
  passwordPolicy: PasswordPolicy;
  /** The hourly limit of API keys created from now on. */
  apiRateLimit: number;
  autoBackup: boolean;
  backupFrequency: BackupFrequency;
  backupRetentionCopies: number;
  /** Null: the host's API_LOG_RETENTION_DAYS. */
  requestLogRetentionDays: number | null;
  /** Null: generated reports are kept. */
  reportRetentionDays: number | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** The column of each field. */
const COLUMNS = {
  systemName: "system_name",
  systemDescription: "system_description",
  countryCode: "country_code",
  currency: "currency",
  timezone: "timezone",
  language: "language",
  sessionTimeout: "session_timeout_minutes",
  passwordPolicy: "password_policy",
  apiRateLimit: "api_rate_limit_per_hour",
  autoBackup: "auto_backup",
  backupFrequency: "backup_frequency",
  backupRetentionCopies: "backup_retention_copies",
  requestLogRetentionDays: "request_log_retention_days",
  reportRetentionDays: "report_retention_days",
  updatedAt: "updated_at",
  updatedBy: "updated_by",
} as const satisfies Record<keyof SystemSettings, string>;

const SELECT_SETTINGS = `SELECT ${
  Object.entries(COLUMNS).map(([field, column]) => `${column} AS "${field}"`).join(", ")
} FROM system_settings WHERE id = 1`;

async function loadSettings(db: Queryable): Promise<SystemSettings> {
  const [row] = await db.all<Omit<SystemSettings, "autoBackup"> & { autoBackup: number }>(
    sql.raw(SELECT_SETTINGS),
  );
  if (!row) throw new Error("system_settings has no row: the migration 1430 did not run");
  return { ...row, autoBackup: Boolean(row.autoBackup) };
}

const cached = new WeakMap<Database, { epoch: number; settings: SystemSettings }>();

/**
 * The settings as the database holds them now. A caller that has just read the epochs (the session
 * guard) passes them, so the request costs no second read.
 */
export async function readSystemSettings(db: Database, epochs?: Epochs): Promise<SystemSettings> {
  // The epoch is read before the row: a change in between makes the entry look stale, never fresh.
  const epoch = (epochs ?? await db.epochs.fresh()).settings;
  const hit = cached.get(db);
  if (hit && hit.epoch === epoch) return hit.settings;
  const settings = await loadSettings(db.read);
  cached.set(db, { epoch, settings });
  return settings;
}

const text = (max: number) => z.string().trim().max(max);
const whole = (label: string, range: { min: number; max: number }, unit: string) =>
  z.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`)
    .min(range.min, `${label} must be at least ${range.min} ${unit}`)
    .max(range.max, `${label} must be at most ${range.max} ${unit}`);

/** The screen's tabs that this module keeps; each tab's PUT replaces that tab's fields. */
export type SettingsTab = "general" | "security" | "api" | "backup" | "system";

export const generalSettingsSchema = z.strictObject({
  systemName: text(255).min(1, "System name is required"),
  systemDescription: text(500),
  countryCode: requiredEnum(COUNTRY_CODES),
  currency: requiredEnum(SETTINGS_CURRENCIES),
  timezone: requiredEnum(TIMEZONES),
  language: requiredEnum(LANGUAGES),
});

/** The host's SESSION_IDLE_MINUTES is the ceiling: a longer timeout could never take effect. */
export const securitySettingsSchema = (ceilingMinutes: number) =>
  z.strictObject({
    sessionTimeout: whole("Session timeout", {
      min: SESSION_TIMEOUT_MINUTES.min,
      max: Math.min(SESSION_TIMEOUT_MINUTES.max, Math.max(SESSION_TIMEOUT_MINUTES.min, ceilingMinutes)),
    }, "minutes"),
    passwordPolicy: requiredEnum(PASSWORD_POLICIES),
  });

export const apiSettingsSchema = z.strictObject({
  apiRateLimit: whole("API rate limit", API_RATE_LIMIT_PER_HOUR, "requests per hour"),
});

export const backupSettingsSchema = z.strictObject({
  autoBackup: z.boolean({ error: "Automatic backups must be true or false" }),
  backupFrequency: requiredEnum(BACKUP_FREQUENCIES),
  backupRetentionCopies: whole("Copies kept", BACKUP_RETENTION_COPIES, "copies"),
});

export const systemSettingsSchema = z.strictObject({
  requestLogRetentionDays: whole("Request log retention", RETENTION_DAYS, "days").nullable(),
  reportRetentionDays: whole("Report retention", RETENTION_DAYS, "days").nullable(),
});

export type SettingsChange = Partial<Omit<SystemSettings, "updatedAt" | "updatedBy">>;

/**
 * Writes the changed fields of one tab with its audit row (before and after), in one transaction.
 * A security change made alone is refused there once dual control is in force (`origin`).
 */
export async function updateSystemSettings(
  db: Database,
  actor: Actor,
  tab: SettingsTab,
  change: SettingsChange,
  origin: GrantOrigin | null = null,
): Promise<SystemSettings> {
  await db.transaction(async (tx) => {
    if (origin) await assertMayActAlone(tx, origin);
    const current = await loadSettings(tx);
    const fields = Object.keys(change) as (keyof SettingsChange)[];
    const value = (field: keyof SettingsChange) =>
      field === "autoBackup" ? (change.autoBackup ? 1 : 0) : change[field] ?? null;
    const assignments = fields.map((field) => sql`${sql.raw(COLUMNS[field])} = ${value(field)}`);
    await tx.run(sql`UPDATE system_settings SET ${sql.join(assignments, sql`, `)},
      updated_at = ${new Date().toISOString()}, updated_by = ${actor.userId} WHERE id = 1`);
    await recordAudit(tx, actor, {
      entityType: "system_settings",
      entityId: tab,
      action: "update",
      changes: {
        before: Object.fromEntries(fields.map((field) => [field, current[field]])),
        after: Object.fromEntries(fields.map((field) => [field, change[field]])),
        ...(origin ? { control: grantNote(origin) } : {}),
      },
    });
  });
  return await loadSettings(db.read);
}

/** The fewest characters a password set now needs: the password policy's, never below the floor. */
export async function passwordMinimumLength(db: Database): Promise<number> {
  return minimumPasswordLength((await readSystemSettings(db)).passwordPolicy);
}
