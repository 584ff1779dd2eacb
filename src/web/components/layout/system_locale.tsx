import { useSystemSettings } from "../../lib/system_settings.ts";

/** The General tab's country, currency and time zone, as the header shows them ("US · USD · UTC"). */
export function SystemLocale() {
  const settings = useSystemSettings().data;
  if (!settings) return null;
  return (
    <span className="hidden text-xs text-slate-600 md:inline" data-testid="system-locale">
      <span className="sr-only">Country, currency and time zone:</span>
      {settings.countryCode} · {settings.currency} · {settings.timezone}
    </span>
  );
}
