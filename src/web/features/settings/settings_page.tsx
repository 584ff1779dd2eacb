/**
 * Spec 2.16: six tabs of local-only settings with section 9's defaults. Edits are a draft until
 * Save, which keeps them in this browser (localStorage); nothing is sent to the server. The SMTP
 * password is never stored: it is empty after a reload, and the field says so.
 */
import { useAtom } from "jotai";
import { type ReactNode, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { SwitchField } from "../../components/ui/switch.tsx";
import { Tabs } from "../../components/ui/tabs.tsx";
import { ReplicationDetails } from "../../components/layout/replication_status.tsx";
import { useToast } from "../../lib/toast.ts";
import {
  API_RATE_LIMIT_PER_HOUR,
  AUDIT_RETENTION_YEARS,
  BACKUP_FREQUENCIES,
  DEFAULT_SETTINGS,
  PASSWORD_POLICIES,
  PASSWORD_POLICY_MIN_LENGTH,
  sanitizeSettings,
  SESSION_TIMEOUT_MINUTES,
  settingsAtom,
  SMTP_PORT,
  type StoredSettings,
} from "./settings_store.ts";

const COUNTRY_OPTIONS = [
  { value: "US", label: "United States (US)" },
  { value: "GB", label: "United Kingdom (GB)" },
  { value: "CA", label: "Canada (CA)" },
  { value: "AU", label: "Australia (AU)" },
  { value: "DE", label: "Germany (DE)" },
];
const CURRENCY_OPTIONS = [
  { value: "USD", label: "US Dollar (USD)" },
  { value: "EUR", label: "Euro (EUR)" },
  { value: "GBP", label: "British Pound (GBP)" },
  { value: "CAD", label: "Canadian Dollar (CAD)" },
  { value: "AUD", label: "Australian Dollar (AUD)" },
];
const TIMEZONE_OPTIONS = [
  { value: "UTC", label: "UTC (Coordinated Universal Time)" },
  { value: "EST", label: "EST (Eastern Standard Time)" },
  { value: "PST", label: "PST (Pacific Standard Time)" },
  { value: "GMT", label: "GMT (Greenwich Mean Time)" },
  { value: "CET", label: "CET (Central European Time)" },
];
const LANGUAGE_OPTIONS = [
  { value: "en", label: "English" },
  { value: "es", label: "Spanish" },
  { value: "fr", label: "French" },
  { value: "de", label: "German" },
];
const POLICY_LABELS: Record<typeof PASSWORD_POLICIES[number], string> = {
  basic: "Basic",
  strong: "Strong",
  complex: "Complex",
};
const POLICY_OPTIONS = PASSWORD_POLICIES.map((policy) => ({
  value: policy,
  label: `${POLICY_LABELS[policy]} (${PASSWORD_POLICY_MIN_LENGTH[policy]}+ characters)`,
}));
const RETENTION_OPTIONS = AUDIT_RETENTION_YEARS.map((years) => ({
  value: String(years),
  label: `${years} ${years === 1 ? "year" : "years"}`,
}));
const FREQUENCY_OPTIONS = BACKUP_FREQUENCIES.map((frequency) => ({
  value: frequency,
  label: frequency[0].toUpperCase() + frequency.slice(1),
}));
const MAINTENANCE_WINDOW = "Sundays 02:00-04:00 UTC";

type NumberField = "sessionTimeout" | "apiRateLimit" | "smtpPort";
/** The form edits numbers as text, so a half-typed value can be shown and checked on Save. */
type Draft = Omit<StoredSettings, NumberField> & Record<NumberField, string>;

const NUMBER_RULES: Record<NumberField, { range: { min: number; max: number }; message: string }> = {
  sessionTimeout: {
    range: SESSION_TIMEOUT_MINUTES,
    message:
      `Session timeout must be a whole number of minutes from ${SESSION_TIMEOUT_MINUTES.min} to ${SESSION_TIMEOUT_MINUTES.max}`,
  },
  apiRateLimit: {
    range: API_RATE_LIMIT_PER_HOUR,
    message:
      `API rate limit must be a whole number of requests per hour from ${API_RATE_LIMIT_PER_HOUR.min} to ${API_RATE_LIMIT_PER_HOUR.max}`,
  },
  smtpPort: {
    range: SMTP_PORT,
    message: `SMTP port must be a whole number from ${SMTP_PORT.min} to ${SMTP_PORT.max}`,
  },
};

function toDraft(settings: StoredSettings): Draft {
  return {
    ...settings,
    sessionTimeout: String(settings.sessionTimeout),
    apiRateLimit: String(settings.apiRateLimit),
    smtpPort: String(settings.smtpPort),
  };
}

function checkNumbers(
  draft: Draft,
): { values: Record<NumberField, number>; errors: Partial<Record<NumberField, string>> } {
  const values = {} as Record<NumberField, number>;
  const errors: Partial<Record<NumberField, string>> = {};
  for (const field of Object.keys(NUMBER_RULES) as NumberField[]) {
    const { range, message } = NUMBER_RULES[field];
    const text = draft[field].trim();
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < range.min || value > range.max) errors[field] = message;
    else values[field] = value;
  }
  return { values, errors };
}

function Section(
  { title, description, children }: { title: string; description: string; children: ReactNode },
) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">{children}</CardContent>
    </Card>
  );
}

export default function SettingsPage() {
  const { toast } = useToast();
  const [stored, setStored] = useAtom(settingsAtom);
  const [draft, setDraft] = useState<Draft>(() => toDraft(stored));
  const [smtpPassword, setSmtpPassword] = useState("");
  const [errors, setErrors] = useState<Partial<Record<NumberField, string>>>({});

  const set = <K extends keyof Draft>(field: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [field]: value }));

  const save = () => {
    const checked = checkNumbers(draft);
    setErrors(checked.errors);
    const firstError = Object.values(checked.errors)[0];
    if (firstError) {
      toast({ title: "Error", description: firstError, variant: "destructive" });
      return;
    }
    setStored(sanitizeSettings({ ...draft, ...checked.values }));
    toast({
      title: "Settings Saved",
      description: "Your settings are kept in this browser only; nothing was sent to the server.",
    });
  };

  const reset = () => {
    setDraft(toDraft(DEFAULT_SETTINGS));
    setErrors({});
    setSmtpPassword("");
    toast({ title: "Defaults Restored", description: "Save Settings to keep the defaults in this browser." });
  };

  const general = (
    <Section title="General Settings" description="How this console names and presents the registry.">
      <TextField
        label="System Name"
        value={draft.systemName}
        maxLength={255}
        onChange={(e) =>
          set("systemName", e.target.value)}
      />
      <TextAreaField
        label="System Description"
        rows={3}
        value={draft.systemDescription}
        maxLength={500}
        onChange={(e) =>
          set("systemDescription", e.target.value)}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Country"
          options={COUNTRY_OPTIONS}
          value={draft.countryCode}
          onChange={(e) => set("countryCode", e.target.value as Draft["countryCode"])}
        />
        <SelectField
          label="Currency"
          options={CURRENCY_OPTIONS}
          value={draft.currency}
          onChange={(e) => set("currency", e.target.value as Draft["currency"])}
        />
        <SelectField
          label="Timezone"
          options={TIMEZONE_OPTIONS}
          value={draft.timezone}
          onChange={(e) => set("timezone", e.target.value as Draft["timezone"])}
        />
        <SelectField
          label="Language"
          options={LANGUAGE_OPTIONS}
          value={draft.language}
          onChange={(e) => set("language", e.target.value as Draft["language"])}
        />
      </div>
    </Section>
  );

  const security = (
    <Section title="Security Settings" description="Sign-in and audit policies.">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Session Timeout (minutes)"
          type="number"
          inputMode="numeric"
          min={SESSION_TIMEOUT_MINUTES.min}
          max={SESSION_TIMEOUT_MINUTES.max}
          value={draft.sessionTimeout}
          error={errors.sessionTimeout}
          onChange={(e) => set("sessionTimeout", e.target.value)}
        />
        <SelectField
          label="Password Policy"
          options={POLICY_OPTIONS}
          value={draft.passwordPolicy}
          onChange={(e) => set("passwordPolicy", e.target.value as Draft["passwordPolicy"])}
        />
        <SelectField
          label="Audit Log Retention"
          options={RETENTION_OPTIONS}
          value={String(draft.auditLogRetention)}
          onChange={(e) => set("auditLogRetention", Number(e.target.value) as Draft["auditLogRetention"])}
        />
      </div>
      <SwitchField
        label="Require multi-factor authentication"
        checked={draft.mfaRequired}
        onChange={(v) => set("mfaRequired", v)}
      />
    </Section>
  );

  const notifications = (
    <div className="space-y-6">
      <Section title="Notification Settings" description="How staff are alerted about registry events.">
        <SwitchField
          label="Email notifications"
          checked={draft.emailNotifications}
          onChange={(v) => set("emailNotifications", v)}
        />
        <SwitchField
          label="SMS notifications"
          checked={draft.smsNotifications}
          onChange={(v) => set("smsNotifications", v)}
        />
      </Section>
      <Section title="Email Server (SMTP)" description="The mail server notifications are sent through.">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="SMTP Server"
            value={draft.smtpServer}
            maxLength={255}
            placeholder="smtp.example.org"
            onChange={(e) => set("smtpServer", e.target.value)}
          />
          <TextField
            label="SMTP Port"
            type="number"
            inputMode="numeric"
            min={SMTP_PORT.min}
            max={SMTP_PORT.max}
            value={draft.smtpPort}
            error={errors.smtpPort}
            onChange={(e) => set("smtpPort", e.target.value)}
          />
          <TextField
            label="SMTP Username"
            value={draft.smtpUsername}
            maxLength={255}
            autoComplete="off"
            onChange={(e) => set("smtpUsername", e.target.value)}
          />
          <TextField
            label="SMTP Password"
            type="password"
            autoComplete="new-password"
            value={smtpPassword}
            hint="Never stored: this field is empty after a reload and must be entered again."
            onChange={(e) => setSmtpPassword(e.target.value)}
          />
        </div>
        <SwitchField label="Use TLS" checked={draft.smtpTls} onChange={(v) => set("smtpTls", v)} />
      </Section>
    </div>
  );

  const api = (
    <Section title="API Settings" description="Limits for programmatic access to the registry.">
      <TextField
        label="API Rate Limit (requests per hour)"
        type="number"
        inputMode="numeric"
        min={API_RATE_LIMIT_PER_HOUR.min}
        max={API_RATE_LIMIT_PER_HOUR.max}
        value={draft.apiRateLimit}
        error={errors.apiRateLimit}
        hint="The documented per-endpoint limits (see API Management) are enforced by the server."
        onChange={(e) => set("apiRateLimit", e.target.value)}
      />
    </Section>
  );

  const backup = (
    <Section title="Backup Settings" description="Automatic backups of the registry database.">
      <SwitchField
        label="Automatic backups"
        checked={draft.autoBackup}
        onChange={(v) => set("autoBackup", v)}
      />
      <SelectField
        label="Backup Frequency"
        options={FREQUENCY_OPTIONS}
        value={draft.backupFrequency}
        disabled={!draft.autoBackup}
        onChange={(e) => set("backupFrequency", e.target.value as Draft["backupFrequency"])}
      />
    </Section>
  );

  const system = (
    <Section title="System Information" description="About this console and where these settings live.">
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-medium text-slate-800">Application</dt>
          <dd className="text-slate-700">Central Bank Registry Console</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-800">Maintenance window</dt>
          <dd className="text-slate-700">{MAINTENANCE_WINDOW}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-800">Settings storage</dt>
          <dd className="text-slate-700">This browser only (local storage); nothing is sent to the server</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-800">Saved system name</dt>
          <dd className="text-slate-700">{stored.systemName}</dd>
        </div>
      </dl>
      <Button variant="outline" onClick={reset}>Reset to Defaults</Button>
      <h3 className="pt-2 text-sm font-semibold text-slate-900">Replication</h3>
      <ReplicationDetails />
    </Section>
  );

  return (
    <>
      <PageHeader
        title="System Settings"
        subtitle="Preferences for this browser"
        actions={<Button onClick={save}>Save Settings</Button>}
      />
      <Tabs
        label="Settings sections"
        tabs={[
          { id: "general", label: "General", content: general },
          { id: "security", label: "Security", content: security },
          { id: "notifications", label: "Notifications", content: notifications },
          { id: "api", label: "API", content: api },
          { id: "backup", label: "Backup", content: backup },
          { id: "system", label: "System", content: system },
        ]}
      />
    </>
  );
}
