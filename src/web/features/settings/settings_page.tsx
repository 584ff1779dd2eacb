/**
 * Spec 2.16: six tabs of local-only settings with section 9's defaults. Edits are a draft until
 * Save, which keeps them in this browser (localStorage); nothing is sent to the server, except
 * "Require multi-factor authentication", which the server enforces (mfa_required_switch.tsx). The
 * SMTP password is never stored: it is empty after a reload, and the field says so.
 */
import { useAtom } from "jotai";
import { useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Tabs } from "../../components/ui/tabs.tsx";
import { useToast } from "../../lib/toast.ts";
import {
  API_RATE_LIMIT_PER_HOUR,
  DEFAULT_SETTINGS,
  sanitizeSettings,
  SESSION_TIMEOUT_MINUTES,
  settingsAtom,
  SMTP_PORT,
  type StoredSettings,
} from "./settings_store.ts";
import {
  ApiSection,
  BackupSection,
  type Draft,
  GeneralSection,
  NotificationsSection,
  type NumberField,
  SecuritySection,
  SystemSection,
} from "./settings_sections.tsx";

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

  const props = { draft, set, errors };
  const notifications = <NotificationsSection {...props} smtpPassword={smtpPassword} setSmtpPassword={setSmtpPassword} />;
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
          { id: "general", label: "General", content: <GeneralSection {...props} /> },
          { id: "security", label: "Security", content: <SecuritySection {...props} /> },
          { id: "notifications", label: "Notifications", content: notifications },
          { id: "api", label: "API", content: <ApiSection {...props} /> },
          { id: "backup", label: "Backup", content: <BackupSection {...props} /> },
          { id: "system", label: "System", content: <SystemSection savedName={stored.systemName} onReset={reset} /> },
        ]}
      />
    </>
  );
}
