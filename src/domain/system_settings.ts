/**
 * The rules of the System Settings screen that the server applies (spec 2.16): the choices and
 * ranges of each field, what a password policy asks, how the idle timeout meets the host's ceiling,
 * and when the next scheduled backup is due. Pure module: no I/O.
 *
 * @module
 */
import { MIN_PASSWORD_LENGTH } from "./password_policy.ts";

export const COUNTRY_CODES = ["US", "GB", "CA", "AU", "DE"] as const;
export const SETTINGS_CURRENCIES = ["USD", "EUR", "GBP", "CAD", "AUD"] as const;
export const TIMEZONES = ["UTC", "EST", "PST", "GMT", "CET"] as const;
export type Timezone = typeof TIMEZONES[number];

/**
 * The time zone each of the spec's choices stands for. EST and PST are read as US Eastern and Pacific
 * time and CET as Central European time, summer time included, as staff in those places keep them;
 * GMT is Greenwich Mean Time without the British summer time.
 */
export const TIMEZONE_ZONES: Readonly<Record<Timezone, string>> = {
  UTC: "UTC",
  EST: "America/New_York",
  PST: "America/Los_Angeles",
  GMT: "Etc/GMT",
  CET: "Europe/Berlin",
};

/** `iso` as the clock in `timezone` shows it, with its offset: "2026-11-28 07:09:15 (UTC-05:00)". */
export function localTimestamp(iso: string, timezone: Timezone): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: TIMEZONE_ZONES[timezone],
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "longOffset",
    }).formatToParts(new Date(iso)).map((part) => [part.type, part.value]),
  );
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : parts.timeZoneName.replace("GMT", "");
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} (UTC${offset})`;
}
export const LANGUAGES = ["en", "es", "fr", "de"] as const;
export const BACKUP_FREQUENCIES = ["hourly", "daily", "weekly", "monthly"] as const;
export type BackupFrequency = typeof BACKUP_FREQUENCIES[number];

/**
 * The spec's "basic" (8+) is not offered: the server never accepts fewer than MIN_PASSWORD_LENGTH
 * (12) characters, so the weakest policy is that floor.
 */
export const PASSWORD_POLICIES = ["strong", "stronger", "complex"] as const;
export type PasswordPolicy = typeof PASSWORD_POLICIES[number];

export const PASSWORD_POLICY_MIN_LENGTH: Readonly<Record<PasswordPolicy, number>> = {
  strong: MIN_PASSWORD_LENGTH,
  stronger: 14,
  complex: 16,
};

export const PASSWORD_POLICY_LABELS: Readonly<Record<PasswordPolicy, string>> = {
  strong: "Strong",
  stronger: "Stronger",
  complex: "Complex",
};

/** The fewest characters a new password needs under `policy`; never below the server's floor. */
export function minimumPasswordLength(policy: PasswordPolicy): number {
  return Math.max(MIN_PASSWORD_LENGTH, PASSWORD_POLICY_MIN_LENGTH[policy]);
}

export const SESSION_TIMEOUT_MINUTES = { min: 5, max: 480 } as const;
export const API_RATE_LIMIT_PER_HOUR = { min: 1, max: 100_000 } as const;
export const BACKUP_RETENTION_COPIES = { min: 1, max: 365 } as const;
export const RETENTION_DAYS = { min: 1, max: 3650 } as const;

/**
 * The idle timeout a session gets: the administrators' setting, never longer than the host's
 * SESSION_IDLE_MINUTES (the ceiling the people who run the server set, and the timeout until an
 * administrator chooses a shorter one).
 */
export function effectiveIdleMinutes(settingMinutes: number, ceilingMinutes: number): number {
  return Math.min(settingMinutes, ceilingMinutes);
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * When the backup after one started at `lastStartedAtMs` is due: an hour, a day or a week later, or
 * the same instant of the next month (the month's last day when it is shorter). Never run before:
 * due at once.
 */
export function nextBackupDueMs(frequency: BackupFrequency, lastStartedAtMs: number | null): number {
  if (lastStartedAtMs === null) return Number.NEGATIVE_INFINITY;
  switch (frequency) {
    case "hourly":
      return lastStartedAtMs + HOUR_MS;
    case "daily":
      return lastStartedAtMs + DAY_MS;
    case "weekly":
      return lastStartedAtMs + 7 * DAY_MS;
    case "monthly": {
      const last = new Date(lastStartedAtMs);
      const next = new Date(last);
      next.setUTCDate(1);
      next.setUTCMonth(last.getUTCMonth() + 1);
      const daysInNext = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
      next.setUTCDate(Math.min(last.getUTCDate(), daysInNext));
      return next.getTime();
    }
  }
}

/** Of the backup folders (names sort by time), the ones beyond the newest `keep`, oldest first. */
export function backupsToRemove(folders: readonly string[], keep: number): string[] {
  const sorted = [...folders].sort();
  return sorted.slice(0, Math.max(0, sorted.length - keep));
}
