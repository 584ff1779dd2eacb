/**
 * Spec 2.16: the System Settings, kept and applied by the server (GET /api/settings). Edits are a
 * draft until Save, which sends each changed tab to PUT /api/settings/<tab>; the server's message
 * per field shows beside the field. Under dual control a Security change is a request for a second
 * administrator, and the screen says so rather than "saved". Non-administrators see the values only.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Tabs } from "../../components/ui/tabs.tsx";
import { apiJson } from "../../lib/api.ts";
import { isPendingApproval, pendingToast } from "../../lib/approval.ts";
import { useAuth } from "../../lib/auth.ts";
import { useDualControlInForce } from "../../lib/dual_control.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import {
  SYSTEM_SETTINGS_KEY,
  type SystemSettingsAnswer,
  useSystemSettings,
} from "../../lib/system_settings.ts";
import { useToast } from "../../lib/toast.ts";
import {
  ApiSection,
  BackupSection,
  GeneralSection,
  SecuritySection,
  SystemSection,
} from "./settings_sections.tsx";
import {
  changedTabs,
  type Draft,
  TAB_LABELS,
  tabBody,
  type TabId,
  tabOfField,
  toDraft,
  withTabsFrom,
} from "./settings_store.ts";
import { NotificationsSection } from "./notifications_section.tsx";

/** Sends each changed tab; answers the field errors, the tabs saved and what became a request for approval. */
async function saveTabs(tabs: TabId[], draft: Draft, requestReason: string) {
  const errors: Record<string, string> = {};
  const saved: TabId[] = [];
  const pending: ReturnType<typeof pendingToast>[] = [];
  const pendingTabs: TabId[] = [];
  for (const tab of tabs) {
    const body = tab === "security" && requestReason.trim()
      ? { ...tabBody(draft, tab), requestReason: requestReason.trim() }
      : tabBody(draft, tab);
    try {
      const answer = await apiJson<unknown>("PUT", `/api/settings/${tab}`, body);
      if (isPendingApproval(answer)) {
        pending.push(pendingToast(answer));
        pendingTabs.push(tab);
      } else saved.push(tab);
    } catch (error) {
      const fields = serverFieldErrors(error);
      Object.assign(errors, Object.keys(fields).length > 0 ? fields : { [tab]: (error as Error).message });
    }
  }
  return { errors, saved, pending, pendingTabs };
}

function useBackUpNow(onDone: () => void) {
  const { toast } = useToast();
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    try {
      await apiJson("POST", "/api/settings/backup/run");
      toast({ title: "Backup Started", description: "The Backup tab shows how it ends." });
    } catch (error) {
      toast({ title: "Backup Not Taken", description: (error as Error).message, variant: "destructive" });
    } finally {
      setRunning(false);
      onDone();
    }
  };
  return { run, running };
}

/**
 * The draft of the form over the server's values. New values from the server (a save, another
 * administrator, an approval) replace every tab not being edited; a tab with edits keeps them.
 */
function useSettingsDraft(settings: SystemSettingsAnswer) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const [base, setBase] = useState(settings);
  // After a Save: the tabs whose drafts stay (the ones the server refused), whatever else came back.
  const keptAfterSave = useRef<TabId[] | null>(null);
  if (settings !== base) {
    const kept = keptAfterSave.current ?? changedTabs(draft, toDraft(base));
    keptAfterSave.current = null;
    setBase(settings);
    setDraft(withTabsFrom(toDraft(settings), draft, kept));
  }
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [field]: value }));
  return { draft, setDraft, set, keptAfterSave };
}

/** Save Settings: each changed tab to the server, then what happened, tab by tab, in toasts. */
function useSaveSettings(settings: SystemSettingsAnswer, form: ReturnType<typeof useSettingsDraft>) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reason, setReason] = useState("");
  const [saving, setSaving] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [SYSTEM_SETTINGS_KEY] });
  const save = async () => {
    const tabs = changedTabs(form.draft, toDraft(settings));
    if (tabs.length === 0) return toast({ title: "Nothing to Save", description: "No setting was changed." });
    setSaving(true);
    const result = await saveTabs(tabs, form.draft, reason);
    setSaving(false);
    setErrors(result.errors);
    const refused = Object.keys(result.errors).map(tabOfField).filter((tab) => tab !== undefined);
    // Only a save changes what the server answers; without one no new values come to merge.
    if (result.saved.length > 0) form.keptAfterSave.current = [...new Set(refused)];
    // A request changes nothing until it is approved: its tab shows the values in force.
    form.setDraft((current) => withTabsFrom(current, toDraft(settings), result.pendingTabs));
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
  return { save, saving, errors, reason, setReason, refresh };
}

function SettingsForm({ settings }: { settings: SystemSettingsAnswer }) {
  const { user } = useAuth();
  const readOnly = !(user?.roles ?? []).includes("administrator");
  const inForce = useDualControlInForce();
  const form = useSettingsDraft(settings);
  const { save, saving, errors, reason, setReason, refresh } = useSaveSettings(settings, form);
  const backup = useBackUpNow(refresh);
  const { draft, set } = form;

  const props = { draft, set, errors, readOnly, settings };
  return (
    <>
      <PageHeader
        title="System Settings"
        subtitle={readOnly
          ? "Only administrators can change these settings"
          : "Kept and applied by the server"}
        actions={readOnly ? undefined : <Button changes onClick={save} disabled={saving}>Save Settings</Button>}
      />
      <Tabs
        label="Settings sections"
        tabs={[
          { id: "general", label: "General", content: <GeneralSection {...props} /> },
          {
            id: "security",
            label: "Security",
            content: (
              <SecuritySection
                {...props}
                reason={reason}
                setReason={setReason}
                reasonAsked={inForce && !readOnly}
              />
            ),
          },
          {
            id: "notifications",
            label: "Notifications",
            content: <NotificationsSection />,
          },
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
  if (error) {
    return (
      <PageHeader title="System Settings" subtitle={`The settings could not be read: ${error.message}`} />
    );
  }
  if (!data) return <PageHeader title="System Settings" subtitle="Loading…" />;
  return <SettingsForm settings={data} />;
}
