/**
 * The settings screen's form: the server's values (GET /api/settings) as a draft, edited per tab
 * and sent to PUT /api/settings/<tab> for each tab that changed. Numbers are edited as text so a
 * half-typed value can be shown; the server checks every field and answers a message per field.
 */
import type { SystemSettingsAnswer } from "../../lib/system_settings.ts";

export type TabId = "general" | "security" | "api" | "backup" | "system";

/** The fields each tab sends, in the order the server's schema lists them. */
export const TAB_FIELDS = {
  general: ["systemName", "systemDescription", "countryCode", "currency", "timezone", "language"],
  security: ["sessionTimeout", "passwordPolicy"],
  api: ["apiRateLimit"],
  backup: ["autoBackup", "backupFrequency", "backupRetentionCopies"],
  system: ["requestLogRetentionDays", "reportRetentionDays"],
} as const satisfies Record<TabId, readonly (keyof SystemSettingsAnswer)[]>;

export const TAB_LABELS: Record<TabId, string> = {
  general: "General",
  security: "Security",
  api: "API",
  backup: "Backup",
  system: "System",
};

type Field = typeof TAB_FIELDS[TabId][number];
/** Whole-number fields, edited as text; "" means "not set" for the two retentions. */
export type NumberField =
  | "sessionTimeout"
  | "apiRateLimit"
  | "backupRetentionCopies"
  | "requestLogRetentionDays"
  | "reportRetentionDays";
const NUMBER_FIELDS: readonly NumberField[] = [
  "sessionTimeout",
  "apiRateLimit",
  "backupRetentionCopies",
  "requestLogRetentionDays",
  "reportRetentionDays",
];
const OPTIONAL_NUMBERS: readonly NumberField[] = ["requestLogRetentionDays", "reportRetentionDays"];

export type Draft = Omit<Pick<SystemSettingsAnswer, Field>, NumberField> & Record<NumberField, string>;

export function toDraft(settings: SystemSettingsAnswer): Draft {
  const draft = Object.fromEntries(
    (Object.values(TAB_FIELDS).flat() as Field[]).map((field) => [field, settings[field]]),
  ) as Record<Field, unknown>;
  for (const field of NUMBER_FIELDS) draft[field] = settings[field] === null ? "" : String(settings[field]);
  return draft as Draft;
}

/** The body of a tab's PUT: a typed number as a number (the server refuses what is not whole). */
export function tabBody(draft: Draft, tab: TabId): Record<string, unknown> {
  return Object.fromEntries(TAB_FIELDS[tab].map((field) => {
    const value = draft[field];
    if (!(NUMBER_FIELDS as readonly string[]).includes(field)) return [field, value];
    const text = String(value).trim();
    if (text === "" && (OPTIONAL_NUMBERS as readonly string[]).includes(field)) return [field, null];
    return [field, text === "" ? text : Number(text)];
  }));
}

/** The tabs whose fields differ from what the server holds. */
export function changedTabs(draft: Draft, saved: Draft): TabId[] {
  return (Object.keys(TAB_FIELDS) as TabId[]).filter((tab) =>
    TAB_FIELDS[tab].some((field) => draft[field] !== saved[field])
  );
}

/** `into` with the fields of `tabs` taken from `from`. */
export function withTabsFrom(into: Draft, from: Draft, tabs: readonly TabId[]): Draft {
  const merged: Record<string, unknown> = { ...into };
  for (const tab of tabs) for (const field of TAB_FIELDS[tab]) merged[field] = from[field];
  return merged as Draft;
}

/** The tab a key of the server's errors belongs to: a field's, the maker's reason's (Security), or a tab's own. */
export function tabOfField(key: string): TabId | undefined {
  if (key === "requestReason") return "security";
  if (key in TAB_FIELDS) return key as TabId;
  return (Object.keys(TAB_FIELDS) as TabId[]).find((tab) =>
    (TAB_FIELDS[tab] as readonly string[]).includes(key)
  );
}
