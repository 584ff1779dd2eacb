/**
 * System settings are local to the browser (spec 2.16): kept in localStorage across reloads and
 * never sent anywhere. The SMTP password is deliberately not part of what is stored, so it is
 * never written to disk in clear; it lives only in the open page.
 */
import { atomWithStorage } from "jotai/utils";

export const SETTINGS_STORAGE_KEY = "cbr-console.settings.v1";

export const COUNTRY_CODES = ["US", "GB", "CA", "AU", "DE"] as const;
export const SETTINGS_CURRENCIES = ["USD", "EUR", "GBP", "CAD", "AUD"] as const;
export const TIMEZONES = ["UTC", "EST", "PST", "GMT", "CET"] as const;
export const LANGUAGES = ["en", "es", "fr", "de"] as const;
export const PASSWORD_POLICIES = ["basic", "strong", "complex"] as const;
export const BACKUP_FREQUENCIES = ["hourly", "daily", "weekly", "monthly"] as const;
export const AUDIT_RETENTION_YEARS = [1, 3, 5, 7, 10] as const;

/** Section 9: basic, strong and complex mean at least 8, 12 and 16 characters. */
export const PASSWORD_POLICY_MIN_LENGTH: Record<typeof PASSWORD_POLICIES[number], number> = {
  basic: 8,
  strong: 12,
  complex: 16,
};

export const SESSION_TIMEOUT_MINUTES = { min: 5, max: 480 } as const;
export const API_RATE_LIMIT_PER_HOUR = { min: 1, max: 100_000 } as const;
export const SMTP_PORT = { min: 1, max: 65_535 } as const;

/** The field names are spec section 3's; units: auditLogRetention in years, apiRateLimit per hour, sessionTimeout in minutes. */
export interface StoredSettings {
  systemName: string;
  systemDescription: string;
  countryCode: typeof COUNTRY_CODES[number];
  currency: typeof SETTINGS_CURRENCIES[number];
  timezone: typeof TIMEZONES[number];
  language: typeof LANGUAGES[number];
  emailNotifications: boolean;
  smsNotifications: boolean;
  auditLogRetention: typeof AUDIT_RETENTION_YEARS[number];
  apiRateLimit: number;
  sessionTimeout: number;
  passwordPolicy: typeof PASSWORD_POLICIES[number];
  mfaRequired: boolean;
  autoBackup: boolean;
  backupFrequency: typeof BACKUP_FREQUENCIES[number];
  smtpServer: string;
  smtpPort: number;
  smtpUsername: string;
  smtpTls: boolean;
}

/** Section 9's defaults. */
export const DEFAULT_SETTINGS: StoredSettings = {
  systemName: "Central Bank Registry System",
  systemDescription: "National payment infrastructure registry and administration console",
  countryCode: "US",
  currency: "USD",
  timezone: "UTC",
  language: "en",
  emailNotifications: true,
  smsNotifications: false,
  auditLogRetention: 5,
  apiRateLimit: 1000,
  sessionTimeout: 30,
  passwordPolicy: "strong",
  mfaRequired: true,
  autoBackup: true,
  backupFrequency: "daily",
  smtpServer: "",
  smtpPort: 587,
  smtpUsername: "",
  smtpTls: true,
};

const MAX_TEXT_LENGTH = 500;

function oneOf<T>(values: readonly T[], value: unknown, fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}

function integerIn(range: { min: number; max: number }, value: unknown, fallback: number): number {
  return Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max
    ? (value as number)
    : fallback;
}

function text(value: unknown, fallback: string): string {
  return typeof value === "string" ? value.slice(0, MAX_TEXT_LENGTH) : fallback;
}

function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === "boolean" ? value : fallback;
}

/** Reads whatever is in storage field by field: anything missing or malformed falls back to its default. */
export function sanitizeSettings(raw: unknown): StoredSettings {
  const value = raw && typeof raw === "object" ? raw as Record<string, unknown> : {};
  const d = DEFAULT_SETTINGS;
  return {
    systemName: text(value.systemName, d.systemName),
    systemDescription: text(value.systemDescription, d.systemDescription),
    countryCode: oneOf(COUNTRY_CODES, value.countryCode, d.countryCode),
    currency: oneOf(SETTINGS_CURRENCIES, value.currency, d.currency),
    timezone: oneOf(TIMEZONES, value.timezone, d.timezone),
    language: oneOf(LANGUAGES, value.language, d.language),
    emailNotifications: flag(value.emailNotifications, d.emailNotifications),
    smsNotifications: flag(value.smsNotifications, d.smsNotifications),
    auditLogRetention: oneOf(AUDIT_RETENTION_YEARS, value.auditLogRetention, d.auditLogRetention),
    apiRateLimit: integerIn(API_RATE_LIMIT_PER_HOUR, value.apiRateLimit, d.apiRateLimit),
    sessionTimeout: integerIn(SESSION_TIMEOUT_MINUTES, value.sessionTimeout, d.sessionTimeout),
    passwordPolicy: oneOf(PASSWORD_POLICIES, value.passwordPolicy, d.passwordPolicy),
    mfaRequired: flag(value.mfaRequired, d.mfaRequired),
    autoBackup: flag(value.autoBackup, d.autoBackup),
    backupFrequency: oneOf(BACKUP_FREQUENCIES, value.backupFrequency, d.backupFrequency),
    smtpServer: text(value.smtpServer, d.smtpServer),
    smtpPort: integerIn(SMTP_PORT, value.smtpPort, d.smtpPort),
    smtpUsername: text(value.smtpUsername, d.smtpUsername),
    smtpTls: flag(value.smtpTls, d.smtpTls),
  };
}

const storage = {
  getItem(key: string, initialValue: StoredSettings): StoredSettings {
    try {
      const stored = localStorage.getItem(key);
      return stored === null ? initialValue : sanitizeSettings(JSON.parse(stored));
    } catch {
      return initialValue;
    }
  },
  setItem(key: string, value: StoredSettings): void {
    // sanitizeSettings keeps only the known fields, so a password can never slip into storage.
    localStorage.setItem(key, JSON.stringify(sanitizeSettings(value)));
  },
  removeItem(key: string): void {
    localStorage.removeItem(key);
  },
};

export const settingsAtom = atomWithStorage<StoredSettings>(SETTINGS_STORAGE_KEY, DEFAULT_SETTINGS, storage, {
  getOnInit: true,
});
