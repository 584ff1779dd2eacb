/** The Notifications tab's data: the SMTP settings, the test e-mail, and the user's e-mail choices. */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import type { SmtpSettingsInput, SmtpSettingsView } from "../../../server/features/notifications/schemas.ts";
import type { Preference } from "../../../server/features/notifications/settings.ts";

export type { Preference, SmtpSettingsInput, SmtpSettingsView };

export const SMTP_KEY = "/api/settings/smtp";
export const PREFERENCES_KEY = "/api/notifications/preferences";

export const useSmtpSettings = () => useQuery<SmtpSettingsView>({ queryKey: [SMTP_KEY] });

export const useSaveSmtpSettings = (onSaved: () => void, onError: (error: Error) => void) =>
  useApiMutation({
    mutationFn: (input: SmtpSettingsInput) => apiJson<SmtpSettingsView>("PUT", SMTP_KEY, input),
    storesAs: SMTP_KEY,
    errorTitle: "E-mail settings not saved",
    onSuccess: onSaved,
    onError,
  });

export const useSendTestMail = (onSent: (result: { to: string }) => void) =>
  useApiMutation({
    mutationFn: () => apiJson<{ sent: true; to: string; detail: string }>("POST", `${SMTP_KEY}/test`),
    errorTitle: "Test e-mail not sent",
    onSuccess: onSent,
  });

export const usePreferences = () => useQuery<Preference[]>({ queryKey: [PREFERENCES_KEY] });

export const useSavePreferences = (onSaved: () => void) =>
  useApiMutation({
    mutationFn: (emailKinds: string[]) => apiJson<Preference[]>("PUT", PREFERENCES_KEY, { emailKinds }),
    storesAs: PREFERENCES_KEY,
    errorTitle: "E-mail choices not saved",
    onSuccess: onSaved,
  });
