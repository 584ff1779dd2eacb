/** The tabs of the settings screen that this feature keeps; each edits its fields of the draft. */
import type { ReactNode } from "react";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { SwitchField } from "../../components/ui/switch.tsx";
import { ReplicationDetails } from "../../components/layout/replication_status.tsx";
import { AdministrationReasonField } from "../../components/approval_reason_field.tsx";
import { TitledCard } from "../../components/ui/card.tsx";
import {
  API_RATE_LIMIT_PER_HOUR,
  BACKUP_FREQUENCIES,
  BACKUP_RETENTION_COPIES,
  PASSWORD_POLICIES,
  PASSWORD_POLICY_LABELS,
  PASSWORD_POLICY_MIN_LENGTH,
  RETENTION_DAYS,
  SESSION_TIMEOUT_MINUTES,
} from "../../../domain/system_settings.ts";
import type { SystemSettingsAnswer } from "../../lib/system_settings.ts";
import { DivergenceReports } from "./divergence_reports.tsx";
import { MfaRequiredSwitch } from "./mfa_required_switch.tsx";
import type { Draft, NumberField } from "./settings_store.ts";

/** Select options from value → label, in the order written. */
const choices = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

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
const POLICY_OPTIONS = PASSWORD_POLICIES.map((policy) => ({
  value: policy,
  label: `${PASSWORD_POLICY_LABELS[policy]} (${PASSWORD_POLICY_MIN_LENGTH[policy]}+ characters)`,
}));
const FREQUENCY_OPTIONS = BACKUP_FREQUENCIES.map((frequency) => ({
  value: frequency,
  label: frequency[0].toUpperCase() + frequency.slice(1),
}));
const MAINTENANCE_WINDOW = "Sundays 02:00-04:00 UTC";

export interface SectionProps {
  draft: Draft;
  set: <K extends keyof Draft>(field: K, value: Draft[K]) => void;
  /** The server's message per field, from the last Save. */
  errors: Partial<Record<string, string>>;
  /** Non-administrators see the settings and change nothing. */
  readOnly: boolean;
  settings: SystemSettingsAnswer;
}

function Section(
  { title, description, children }: { title: string; description: string; children: ReactNode },
) {
  return (
    <TitledCard title={title} description={description} contentClassName="space-y-4">{children}</TitledCard>
  );
}

/** A whole number typed as text; the server's message of a bad value shows on Save. */
function NumberSetting({ label, field, range, hint, draft, set, errors, readOnly }: SectionProps & {
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
      disabled={readOnly}
      onChange={(e) => set(field, e.target.value)}
    />
  );
}

type TextKey = { [K in keyof Draft]: Draft[K] extends string ? K : never }[keyof Draft];
type SwitchKey = { [K in keyof Draft]: Draft[K] extends boolean ? K : never }[keyof Draft];

/** The value, change handler, error and state of a setting typed or chosen as text. */
function textSetting({ draft, set, readOnly, errors }: SectionProps, field: TextKey) {
  return {
    value: draft[field],
    disabled: readOnly,
    error: errors[field],
    onChange: (e: { target: { value: string } }) => set(field, e.target.value as Draft[typeof field]),
  };
}

/** A select over one of the draft's choice fields. */
function ChoiceSetting({ label, field, options, disabled, ...props }: SectionProps & {
  label: string;
  field: TextKey;
  options: readonly { value: string; label: string }[];
  disabled?: boolean;
}) {
  const bound = textSetting(props, field);
  return <SelectField label={label} options={options} {...bound} disabled={bound.disabled || disabled} />;
}

/** An on/off setting of the draft. */
function SwitchSetting(
  { label, field, draft, set, readOnly }: SectionProps & { label: string; field: SwitchKey },
) {
  return (
    <SwitchField
      label={label}
      checked={draft[field]}
      onChange={(v) => set(field, v)}
      disabled={readOnly}
    />
  );
}

/** The four regional choices of the General section, in the order they show. */
const REGIONAL_CHOICES = [
  ["Country", "countryCode", COUNTRY_OPTIONS],
  ["Currency", "currency", CURRENCY_OPTIONS],
  ["Timezone", "timezone", TIMEZONE_OPTIONS],
  ["Language", "language", LANGUAGE_OPTIONS],
] as const;

export function GeneralSection(props: SectionProps) {
  return (
    <Section
      title="General Settings"
      description="How this console names and presents the registry: the name and description head the sidebar, the country, currency and time zone the header, and all of them every report."
    >
      <TextField label="System Name" maxLength={255} {...textSetting(props, "systemName")} />
      <TextAreaField
        label="System Description"
        rows={3}
        maxLength={500}
        {...textSetting(props, "systemDescription")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {REGIONAL_CHOICES.map(([label, field, options]) => (
          <ChoiceSetting key={field} label={label} field={field} options={options} {...props} />
        ))}
      </div>
    </Section>
  );
}

/** A value that cannot be changed, with the reason beside it. */
function ReadOnlyFact({ label, value, reason }: { label: string; value: string; reason: string }) {
  return (
    <div>
      <TextField label={label} value={value} disabled readOnly />
      <p className="mt-1 text-xs text-slate-600">{reason}</p>
    </div>
  );
}

export function SecuritySection(
  props: SectionProps & {
    reason: string;
    setReason: (reason: string) => void;
    reasonAsked: boolean;
  },
) {
  const { settings } = props;
  const ceiling = Math.min(SESSION_TIMEOUT_MINUTES.max, settings.sessionTimeoutCeiling);
  return (
    <Section title="Security Settings" description="Sign-in and audit policies, enforced by the server.">
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberSetting
          {...props}
          label="Session Timeout (minutes)"
          field="sessionTimeout"
          range={{ min: SESSION_TIMEOUT_MINUTES.min, max: ceiling }}
          hint={`An idle session ends after this long; at most ${ceiling} minutes on this server (SESSION_IDLE_MINUTES).`}
        />
        <ChoiceSetting label="Password Policy" field="passwordPolicy" options={POLICY_OPTIONS} {...props} />
        <ReadOnlyFact
          label="Audit Log Retention"
          value="Kept permanently"
          reason={settings.readOnly.auditLogRetention}
        />
      </div>
      <p className="text-xs text-slate-600">
        The password policy applies to every password set from now on (a first password, a change, a reset);
        the server never accepts fewer than 12 characters.
      </p>
      <AdministrationReasonField
        value={props.reason}
        onChange={props.setReason}
        error={props.errors.requestReason}
        asked={props.reasonAsked}
      />
      <MfaRequiredSwitch />
    </Section>
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
        hint="The hourly limit of API keys created from now on, per documented endpoint (the endpoint's own limit where lower). Existing keys keep theirs."
      />
    </Section>
  );
}

/** The last backup as the Backup tab reports it. */
function lastBackupText(settings: SystemSettingsAnswer): string {
  const run = settings.backup.lastRun;
  if (!run) return "No backup taken yet";
  if (run.status === "running") return `Running since ${run.startedAt}`;
  if (run.status === "failed") return `Failed at ${run.finishedAt}: ${run.error}`;
  return `Completed at ${run.finishedAt}: ${run.folder} (${run.sizeBytes} bytes)`;
}

export function BackupSection(props: SectionProps & { onBackUpNow: () => void; backingUp: boolean }) {
  const { settings, draft } = props;
  return (
    <Section
      title="Backup Settings"
      description="Automatic backups of the registry database, taken by the server."
    >
      {!settings.backup.takesBackups && (
        <p className="text-sm text-slate-700">
          Headquarters backs up the primary: this regional node's schedule is headquarters', and Back up now
          runs there.
        </p>
      )}
      <SwitchSetting label="Automatic backups" field="autoBackup" {...props} />
      <div className="grid gap-4 sm:grid-cols-2">
        <ChoiceSetting
          label="Backup Frequency"
          field="backupFrequency"
          options={FREQUENCY_OPTIONS}
          disabled={!draft.autoBackup}
          {...props}
        />
        <NumberSetting
          {...props}
          label="Copies kept"
          field="backupRetentionCopies"
          range={BACKUP_RETENTION_COPIES}
        />
      </div>
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <Fact term="Last backup">{lastBackupText(settings)}</Fact>
        <Fact term="Next scheduled backup">{settings.backup.nextDueAt ?? "None scheduled"}</Fact>
      </dl>
      {!props.readOnly && (
        <Button changes
          variant="outline"
          onClick={props.onBackUpNow}
          disabled={props.backingUp || settings.backup.lastRun?.status === "running"}
        >
          {props.backingUp || settings.backup.lastRun?.status === "running" ? "Backing up…" : "Back up now"}
        </Button>
      )}
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

export function SystemSection(props: SectionProps) {
  const { settings } = props;
  return (
    <Section
      title="System Information"
      description="About this console, and how long it keeps what it records."
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberSetting
          {...props}
          label="Request log retention (days)"
          field="requestLogRetentionDays"
          range={RETENTION_DAYS}
          hint={`Empty: the server's default of ${settings.requestLogRetentionDefaultDays} days (API_LOG_RETENTION_DAYS).`}
        />
        <NumberSetting
          {...props}
          label="Report retention (days)"
          field="reportRetentionDays"
          range={RETENTION_DAYS}
          hint="Generated reports older than this are deleted hourly; empty: reports are kept."
        />
      </div>
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <Fact term="Application">Central Bank Registry Console</Fact>
        <Fact term="Maintenance window">{MAINTENANCE_WINDOW}</Fact>
        <Fact term="Settings storage">On the server, audited; every node reads the same values</Fact>
        <Fact term="Last changed">{settings.updatedAt ?? "Never (defaults)"}</Fact>
      </dl>
      <h3 className="pt-2 text-sm font-semibold text-slate-900">Replication</h3>
      <ReplicationDetails />
      <h3 className="pt-2 text-sm font-semibold text-slate-900">Changes lost in primary restores</h3>
      <DivergenceReports />
    </Section>
  );
}
