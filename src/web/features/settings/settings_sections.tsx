/** The six tabs of the settings screen; each edits its fields of the draft. */
import type { ReactNode } from "react";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { SwitchField } from "../../components/ui/switch.tsx";
import { ReplicationDetails } from "../../components/layout/replication_status.tsx";
import { DivergenceReports } from "./divergence_reports.tsx";
import { MfaRequiredSwitch } from "./mfa_required_switch.tsx";
import {
  API_RATE_LIMIT_PER_HOUR,
  AUDIT_RETENTION_YEARS,
  BACKUP_FREQUENCIES,
  PASSWORD_POLICIES,
  PASSWORD_POLICY_MIN_LENGTH,
  SESSION_TIMEOUT_MINUTES,
  SMTP_PORT,
  type StoredSettings,
} from "./settings_store.ts";
import { TitledCard } from "../../components/ui/card.tsx";

/** Select options from value → label, in the order written. */
const choices = (labels: Record<string, string>) => Object.entries(labels).map(([value, label]) => ({ value, label }));

const COUNTRY_OPTIONS = choices({
  US: "United States (US)",
  GB: "United Kingdom (GB)",
  CA: "Canada (CA)",
  AU: "Australia (AU)",
  DE: "Germany (DE)",
});
const CURRENCY_OPTIONS = choices({
  USD: "US Dollar (USD)",
  EUR: "Euro (EUR)",
  GBP: "British Pound (GBP)",
  CAD: "Canadian Dollar (CAD)",
  AUD: "Australian Dollar (AUD)",
});
const TIMEZONE_OPTIONS = choices({
  UTC: "UTC (Coordinated Universal Time)",
  EST: "EST (Eastern Standard Time)",
  PST: "PST (Pacific Standard Time)",
  GMT: "GMT (Greenwich Mean Time)",
  CET: "CET (Central European Time)",
});
const LANGUAGE_OPTIONS = choices({
  en: "English",
  es: "Spanish",
  fr: "French",
  de: "German",
});
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

export type NumberField = "sessionTimeout" | "apiRateLimit" | "smtpPort";
/** The form edits numbers as text, so a half-typed value can be shown and checked on Save. */
export type Draft = Omit<StoredSettings, NumberField> & Record<NumberField, string>;

export interface SectionProps {
  draft: Draft;
  set: <K extends keyof Draft>(field: K, value: Draft[K]) => void;
  errors: Partial<Record<NumberField, string>>;
}

function Section(
  { title, description, children }: { title: string; description: string; children: ReactNode },
) {
  return (
    <TitledCard title={title} description={description} contentClassName="space-y-4">{children}</TitledCard>
  );
}

/** A whole number typed as text within its range; the message of a bad value shows on Save. */
function NumberSetting({ label, field, range, hint, draft, set, errors }: SectionProps & {
  label: string;
  field: NumberField;
  range: { min: number; max: number };
  hint?: string;
}) {
  return (
    <TextField
      label={label}
      type="number"
      inputMode="numeric"
      min={range.min}
      max={range.max}
      value={draft[field]}
      error={errors[field]}
      hint={hint}
      onChange={(e) => set(field, e.target.value)}
    />
  );
}

type TextKey = { [K in keyof Draft]: Draft[K] extends string ? K : never }[keyof Draft];
type SwitchKey = { [K in keyof Draft]: Draft[K] extends boolean ? K : never }[keyof Draft];
type DraftBinding = Pick<SectionProps, "draft" | "set">;

/** The value and change handler of a setting typed or chosen as text. */
function textSetting({ draft, set }: DraftBinding, field: TextKey) {
  return {
    value: draft[field],
    onChange: (e: { target: { value: string } }) => set(field, e.target.value as Draft[typeof field]),
  };
}

/** A select over one of the draft's choice fields. */
function ChoiceSetting({ label, field, options, disabled, ...draft }: DraftBinding & {
  label: string;
  field: TextKey;
  options: readonly { value: string; label: string }[];
  disabled?: boolean;
}) {
  return <SelectField label={label} options={options} disabled={disabled} {...textSetting(draft, field)} />;
}

/** An on/off setting of the draft. */
function SwitchSetting({ label, field, draft, set }: DraftBinding & { label: string; field: SwitchKey }) {
  return <SwitchField label={label} checked={draft[field]} onChange={(v) => set(field, v)} />;
}

/** The four regional choices of the General section, in the order they show. */
const REGIONAL_CHOICES = [
  ["Country", "countryCode", COUNTRY_OPTIONS],
  ["Currency", "currency", CURRENCY_OPTIONS],
  ["Timezone", "timezone", TIMEZONE_OPTIONS],
  ["Language", "language", LANGUAGE_OPTIONS],
] as const;

export function GeneralSection({ draft, set }: SectionProps) {
  return (
    <Section title="General Settings" description="How this console names and presents the registry.">
      <TextField label="System Name" maxLength={255} {...textSetting({ draft, set }, "systemName")} />
      <TextAreaField
        label="System Description"
        rows={3}
        maxLength={500}
        {...textSetting({ draft, set }, "systemDescription")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {REGIONAL_CHOICES.map(([label, field, options]) => (
          <ChoiceSetting key={field} label={label} field={field} options={options} draft={draft} set={set} />
        ))}
      </div>
    </Section>
  );
}

export function SecuritySection(props: SectionProps) {
  const { draft, set } = props;
  return (
    <Section title="Security Settings" description="Sign-in and audit policies.">
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberSetting
          {...props}
          label="Session Timeout (minutes)"
          field="sessionTimeout"
          range={SESSION_TIMEOUT_MINUTES}
        />
        <ChoiceSetting label="Password Policy" field="passwordPolicy" options={POLICY_OPTIONS} draft={draft} set={set} />
        <SelectField
          label="Audit Log Retention"
          options={RETENTION_OPTIONS}
          value={String(draft.auditLogRetention)}
          onChange={(e) => set("auditLogRetention", Number(e.target.value) as Draft["auditLogRetention"])}
        />
      </div>
      <MfaRequiredSwitch />
    </Section>
  );
}

function SmtpFields(
  props: SectionProps & { smtpPassword: string; setSmtpPassword: (password: string) => void },
) {
  const { smtpPassword, setSmtpPassword } = props;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="SMTP Server"
        maxLength={255}
        placeholder="smtp.example.org"
        {...textSetting(props, "smtpServer")}
      />
      <NumberSetting {...props} label="SMTP Port" field="smtpPort" range={SMTP_PORT} />
      <TextField label="SMTP Username" maxLength={255} autoComplete="off" {...textSetting(props, "smtpUsername")} />
      <TextField
        label="SMTP Password"
        type="password"
        autoComplete="new-password"
        value={smtpPassword}
        hint="Never stored: this field is empty after a reload and must be entered again."
        onChange={(e) => setSmtpPassword(e.target.value)}
      />
    </div>
  );
}

export function NotificationsSection(
  props: SectionProps & { smtpPassword: string; setSmtpPassword: (password: string) => void },
) {
  const { draft, set } = props;
  return (
    <div className="space-y-6">
      <Section title="Notification Settings" description="How staff are alerted about registry events.">
        <SwitchSetting label="Email notifications" field="emailNotifications" draft={draft} set={set} />
        <SwitchSetting label="SMS notifications" field="smsNotifications" draft={draft} set={set} />
      </Section>
      <Section title="Email Server (SMTP)" description="The mail server notifications are sent through.">
        <SmtpFields {...props} />
        <SwitchSetting label="Use TLS" field="smtpTls" draft={draft} set={set} />
      </Section>
    </div>
  );
}

export function ApiSection(props: SectionProps) {
  return (
    <Section title="API Settings" description="Limits for programmatic access to the registry.">
      <NumberSetting
        {...props}
        label="API Rate Limit (requests per hour)"
        field="apiRateLimit"
        range={API_RATE_LIMIT_PER_HOUR}
        hint="The documented per-endpoint limits (see API Management) are enforced by the server."
      />
    </Section>
  );
}

export function BackupSection({ draft, set }: SectionProps) {
  return (
    <Section title="Backup Settings" description="Automatic backups of the registry database.">
      <SwitchSetting label="Automatic backups" field="autoBackup" draft={draft} set={set} />
      <ChoiceSetting
        label="Backup Frequency"
        field="backupFrequency"
        options={FREQUENCY_OPTIONS}
        disabled={!draft.autoBackup}
        draft={draft}
        set={set}
      />
    </Section>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="font-medium text-slate-800">{term}</dt>
      <dd className="text-slate-700">{children}</dd>
    </div>
  );
}

export function SystemSection({ savedName, onReset }: { savedName: string; onReset: () => void }) {
  return (
    <Section title="System Information" description="About this console and where these settings live.">
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <Fact term="Application">Central Bank Registry Console</Fact>
        <Fact term="Maintenance window">{MAINTENANCE_WINDOW}</Fact>
        <Fact term="Settings storage">This browser only (local storage); nothing is sent to the server</Fact>
        <Fact term="Saved system name">{savedName}</Fact>
      </dl>
      <Button variant="outline" onClick={onReset}>Reset to Defaults</Button>
      <h3 className="pt-2 text-sm font-semibold text-slate-900">Replication</h3>
      <ReplicationDetails />
      <h3 className="pt-2 text-sm font-semibold text-slate-900">Changes lost in primary restores</h3>
      <DivergenceReports />
    </Section>
  );
}
