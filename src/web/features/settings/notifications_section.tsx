/**
 * The Notifications tab: the mail server and the user's own e-mail choices (notifications_tab.tsx),
 * and the spec's SMS switch, shown off with the server's reason since the console has no SMS gateway.
 */
import { TitledCard } from "../../components/ui/card.tsx";
import { SwitchField } from "../../components/ui/switch.tsx";
import { useSystemSettings } from "../../lib/system_settings.ts";
import { NotificationsTab } from "./notifications_tab.tsx";

export function NotificationsSection() {
  const smsReason = useSystemSettings().data?.readOnly.smsNotifications;
  return (
    <div className="space-y-6">
      <NotificationsTab />
      <TitledCard title="SMS" description="Text messages to staff phones." contentClassName="space-y-1">
        <SwitchField label="SMS notifications" checked={false} onChange={() => {}} disabled />
        <p className="text-xs text-slate-600">{smsReason}</p>
      </TitledCard>
    </div>
  );
}
