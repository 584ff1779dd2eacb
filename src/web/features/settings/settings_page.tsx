/**
 * Spec 2.16: the System Settings, kept and applied by the server (GET /api/settings). Edits are a
 * draft until Save, which sends each changed tab to PUT /api/settings/<tab>; the server's message
 * per field shows beside the field. Under dual control a Security change is a request for a second
 * administrator, and the screen says so rather than "saved". Non-administrators see the values only.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Tabs } from "../../components/ui/tabs.tsx";
import { apiJson } from "../../lib/api.ts";
import { isPendingApproval, pendingToast } from "../../lib/approval.ts";
import { useAuth } from "../../lib/auth.ts";
import { useDualControlInForce } from "../../lib/dual_control.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { SYSTEM_SETTINGS_KEY, type SystemSettingsAnswer, useSystemSettings } from "../../lib/system_settings.ts";
import { useToast } from "../../lib/toast.ts";
import { ApiSection, BackupSection, GeneralSection, SecuritySection, SystemSection } from "./settings_sections.tsx";
import { changedTabs, type Draft, TAB_LABELS, tabBody, type TabId, toDraft } from "./settings_store.ts";
import { NotificationsTabSlot } from "./notifications_tab_slot.tsx";

/** Sends each changed tab; answers the field errors and what became a request for approval. */
async function saveTabs(tabs: TabId[], draft: Draft, requestReason: string) {
  const errors: Record<string, string> = {};
  const saved: TabId[] = [];
  const pending: ReturnType<typeof pendingToast>[] = [];
  for (const tab of tabs) {
    const body = tab === "security" && requestReason.trim()
      ? { ...tabBody(draft, tab), requestReason: requestReason.trim() }
      : tabBody(draft, tab);
    try {
      const answer = await apiJson<unknown>("PUT", `/api/settings/${tab}`, body);
      if (isPendingApproval(answer)) pending.push(pendingToast(answer));
      else saved.push(tab);
    } catch (error) {
      const fields = serverFieldErrors(error);
      Object.assign(errors, Object.keys(fields).length > 0 ? fields : { [tab]: (error as Error).message });
    }
  }
  return { errors, saved, pending };
}

function useBackUpNow(onDone: () => void) {
  const { toast } = useToast();
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    try {
      const result = await apiJson<{ status: string; folder: string | null; error: string | null }>(
        "POST",
        "/api/settings/backup/run",
      );
      toast(result.status === "completed"
        ? { title: "Backup Taken", description: `Written to ${result.folder}.` }
        : { title: "Backup Failed", description: result.error ?? "", variant: "destructive" });
    } catch (error) {
      toast({ title: "Backup Not Taken", description: (error as Error).message, variant: "destructive" });
    } finally {
      setRunning(false);
      onDone();
    }
  };
  return { run, running };
}

function SettingsForm({ settings }: { settings: SystemSettingsAnswer }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const readOnly = !(user?.roles ?? []).includes("administrator");
  const inForce = useDualControlInForce();
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reason, setReason] = useState("");
  const [saving, setSaving] = useState(false);
  // A value saved elsewhere (or by the approval of a request) replaces an untouched draft.
  useEffect(() => setDraft(toDraft(settings)), [settings]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [SYSTEM_SETTINGS_KEY] });
  const backup = useBackUpNow(refresh);

  const set = <K extends keyof Draft>(field: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [field]: value }));

  const save = async () => {
    const tabs = changedTabs(draft, toDraft(settings));
    if (tabs.length === 0) return toast({ title: "Nothing to Save", description: "No setting was changed." });
    setSaving(true);
    const result = await saveTabs(tabs, draft, reason);
    setSaving(false);
    setErrors(result.errors);
    for (const pending of result.pending) toast(pending);
    if (result.saved.length > 0) {
      const names = result.saved.map((tab) => TAB_LABELS[tab]).join(", ");
      toast({ title: "Settings Saved", description: `${names}: saved on the server and in effect.` });
    }
    const firstError = Object.values(result.errors)[0];
    if (firstError) toast({ title: "Error", description: firstError, variant: "destructive" });
    if (result.pending.length > 0) setReason("");
    await refresh();
  };

  const props = { draft, set, errors, readOnly, settings };
  return (
    <>
      <PageHeader
        title="System Settings"
        subtitle={readOnly ? "Only administrators can change these settings" : "Kept and applied by the server"}
        actions={readOnly ? undefined : <Button onClick={save} disabled={saving}>Save Settings</Button>}
      />
      <Tabs
        label="Settings sections"
        tabs={[
          { id: "general", label: "General", content: <GeneralSection {...props} /> },
          {
            id: "security",
            label: "Security",
            content: <SecuritySection {...props} reason={reason} setReason={setReason} reasonAsked={inForce && !readOnly} />,
          },
          { id: "notifications", label: "Notifications", content: <NotificationsTabSlot smsReason={settings.readOnly.smsNotifications} /> },
          { id: "api", label: "API", content: <ApiSection {...props} /> },
          {
            id: "backup",
            label: "Backup",
            content: <BackupSection {...props} onBackUpNow={backup.run} backingUp={backup.running} />,
          },
          { id: "system", label: "System", content: <SystemSection {...props} /> },
        ]}
      />
    </>
  );
}

export default function SettingsPage() {
  const { data, error } = useSystemSettings();
  if (error) return <PageHeader title="System Settings" subtitle={`The settings could not be read: ${error.message}`} />;
  if (!data) return <PageHeader title="System Settings" subtitle="Loading…" />;
  return <SettingsForm settings={data} />;
}
