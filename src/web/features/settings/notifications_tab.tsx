/**
 * Settings, Notifications: the mail server the console sends through (administrators change it and
 * send a test e-mail; everyone else reads it), and the signed-in user's own choice of the kinds of
 * notification they also receive by e-mail.
 */
import { type FormEvent, useEffect, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { SwitchField } from "../../components/ui/switch.tsx";
import { useMayCall } from "../../lib/auth.ts";
import { type FieldErrors, serverFieldErrors } from "../../lib/form_input.ts";
import { useToast } from "../../lib/toast.ts";
import {
  type SmtpSettingsInput,
  type SmtpSettingsView,
  usePreferences,
  useSavePreferences,
  useSaveSmtpSettings,
  useSendTestMail,
  useSmtpSettings,
} from "./notifications_api.ts";

const TLS_OPTIONS = [
  { value: "starttls", label: "STARTTLS (usually port 587)" },
  { value: "tls", label: "TLS from the start (usually port 465)" },
  { value: "none", label: "None (a relay on a trusted network only)" },
] as const;

interface SmtpForm {
  host: string;
  port: string;
  tls: string;
  username: string;
  password: string;
  fromAddress: string;
}

const formOf = (view: SmtpSettingsView | undefined): SmtpForm => ({
  host: view?.host ?? "",
  port: view?.port ? String(view.port) : "587",
  tls: view?.tls ?? "starttls",
  username: view?.username ?? "",
  password: "",
  fromAddress: view?.fromAddress ?? "",
});

function SmtpSettingsForm({ view }: { view: SmtpSettingsView | undefined }) {
  const { toast } = useToast();
  const [form, setForm] = useState<SmtpForm>(() => formOf(view));
  const [errors, setErrors] = useState<FieldErrors>({});
  useEffect(() => setForm(formOf(view)), [view]);
  const save = useSaveSmtpSettings(
    () => {
      setErrors({});
      toast({ title: "E-mail settings saved" });
    },
    (error) => setErrors(serverFieldErrors(error)),
  );
  const sendTest = useSendTestMail((result) => toast({ title: "Test e-mail sent", description: `To ${result.to}` }));
  const bind = (field: keyof SmtpForm) => ({
    value: form[field],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value }),
    error: errors[field],
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      host: form.host.trim(),
      port: Number(form.port),
      tls: form.tls as SmtpSettingsInput["tls"],
      username: form.username.trim() || null,
      // Blank keeps the stored password: it is never sent back to be shown.
      ...(form.password ? { password: form.password } : {}),
      fromAddress: form.fromAddress.trim(),
    });
  };
  return (
    <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
      <TextField label="SMTP host" autoComplete="off" {...bind("host")} />
      <TextField label="Port" inputMode="numeric" {...bind("port")} />
      <SelectField label="Encryption" options={TLS_OPTIONS} {...bind("tls")} />
      <TextField label="Sender address" type="email" {...bind("fromAddress")} />
      <TextField label="User name" autoComplete="off" hint="Blank: the server asks for no login" {...bind("username")} />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={view?.passwordSet ? "A password is stored; leave blank to keep it" : "No password stored"}
        {...bind("password")}
      />
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <Button changes type="submit" disabled={save.isPending}>Save e-mail settings</Button>
        <Button changes variant="outline" disabled={!view?.configured || sendTest.isPending} onClick={() => sendTest.mutate()}>
          Send test e-mail
        </Button>
      </div>
    </form>
  );
}

function SmtpSettingsSummary({ view }: { view: SmtpSettingsView | undefined }) {
  if (!view?.configured) return <p className="text-sm text-slate-700">No mail server is configured: notifications appear in the bell only.</p>;
  const rows: [string, string][] = [
    ["SMTP host", `${view.host}:${view.port}`],
    ["Encryption", TLS_OPTIONS.find((option) => option.value === view.tls)?.label ?? String(view.tls)],
    ["Sender address", view.fromAddress ?? ""],
    ["User name", view.username ?? "None"],
    ["Password", view.passwordSet ? "Stored" : "None"],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-slate-700">{term}</dt>
          <dd className="text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function EmailChoices() {
  const { toast } = useToast();
  const { data: preferences } = usePreferences();
  const save = useSavePreferences(() => toast({ title: "E-mail choices saved" }));
  const toggle = (kind: string, email: boolean) => {
    const chosen = (preferences ?? []).filter((p) => (p.kind === kind ? email : p.email)).map((p) => p.kind);
    save.mutate(chosen);
  };
  return (
    <fieldset className="space-y-3" disabled={save.isPending}>
      <legend className="sr-only">Kinds of notification to receive by e-mail</legend>
      {(preferences ?? []).map((preference) => (
        <SwitchField
          key={preference.kind}
          label={preference.label}
          checked={preference.email}
          onChange={(email) => toggle(preference.kind, email)}
        />
      ))}
    </fieldset>
  );
}

export function NotificationsTab() {
  const { data: view } = useSmtpSettings();
  const mayChange = useMayCall("PUT", "/api/settings/smtp");
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>E-mail server</CardTitle>
          <CardDescription>
            The SMTP server the console sends notification e-mails through. The password is stored encrypted and never shown.
          </CardDescription>
        </CardHeader>
        <CardContent>{mayChange ? <SmtpSettingsForm view={view} /> : <SmtpSettingsSummary view={view} />}</CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>My e-mail notifications</CardTitle>
          <CardDescription>
            Every notification appears in the bell. Choose the kinds you also want by e-mail.
          </CardDescription>
        </CardHeader>
        <CardContent><EmailChoices /></CardContent>
      </Card>
    </div>
  );
}
