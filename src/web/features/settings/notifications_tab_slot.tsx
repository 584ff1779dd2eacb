/**
 * The Notifications tab's place on the settings screen, until the notifications feature's own
 * NotificationsTab takes it: the e-mail switch as this browser keeps it, and SMS shown off with why.
 */
import { atomWithStorage } from "jotai/utils";
import { useAtom } from "jotai";
import { TitledCard } from "../../components/ui/card.tsx";
import { SwitchField } from "../../components/ui/switch.tsx";
import { useSystemSettings } from "../../lib/system_settings.ts";

const emailNotificationsAtom = atomWithStorage("cbr-console.settings.emailNotifications", true, undefined, {
  getOnInit: true,
});

export function NotificationsTabSlot() {
  const [email, setEmail] = useAtom(emailNotificationsAtom);
  const smsReason = useSystemSettings().data?.readOnly.smsNotifications;
  return (
    <TitledCard
      title="Notification Settings"
      description="How staff are alerted about registry events."
      contentClassName="space-y-4"
    >
      <SwitchField label="Email notifications" checked={email} onChange={setEmail} />
      <div>
        <SwitchField label="SMS notifications" checked={false} onChange={() => {}} disabled />
        <p className="mt-1 text-xs text-slate-600">{smsReason}</p>
      </div>
    </TitledCard>
  );
}
