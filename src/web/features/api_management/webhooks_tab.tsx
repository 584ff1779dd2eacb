/**
 * Webhooks (administrators): register an endpoint for the events a downstream system wants (its
 * signing secret shown once, with a copy button), enable or disable it, remove it, and read its
 * delivery log with a Redeliver button per delivery.
 */
import { type FormEvent, useMemo, useState } from "react";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TitledCard } from "../../components/ui/card.tsx";
import { type ColumnDef, DataTable } from "../../components/ui/data_table.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { DialogActions } from "../../components/dialog_actions.tsx";
import { actionsColumn } from "../../components/columns.tsx";
import { formatDate } from "../../lib/format.ts";
import { type FieldErrors, serverFieldErrors } from "../../lib/form_input.ts";
import { useToast } from "../../lib/toast.ts";
import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_KINDS,
} from "../../../domain/webhooks.ts";
import { ShownOnceSecretDialog } from "./secret_dialog.tsx";
import { DeliveryLog } from "./webhook_deliveries.tsx";
import {
  type CreatedWebhook,
  useCreateWebhook,
  useDeleteWebhook,
  useSetWebhookEnabled,
  useWebhooks,
  type Webhook,
} from "./webhooks_api.ts";
import { loadFailure } from "../../components/ui/load_failed.tsx";

const LOADING_ROWS = 2;

export const EVENT_KIND_LABELS: Record<string, string> = {
  institution_status_changed: "Institution status changed",
  participant_suspended: "Participant suspended",
  directory_edition_published: "Directory edition published",
};

function EventKindChoices({ chosen, onChange, error }: {
  chosen: string[];
  onChange: (kinds: string[]) => void;
  error: string | undefined;
}) {
  const toggle = (kind: string) =>
    onChange(chosen.includes(kind) ? chosen.filter((item) => item !== kind) : [...chosen, kind]);
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">Events</legend>
      <div className="mt-1 flex flex-wrap gap-4">
        {WEBHOOK_EVENT_KINDS.map((kind) => (
          <label key={kind} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              checked={chosen.includes(kind)}
              onChange={() =>
                toggle(kind)}
            />
            {EVENT_KIND_LABELS[kind]} <code className="text-xs text-slate-600">{kind}</code>
          </label>
        ))}
      </div>
      {error && <p className="mt-1 text-sm text-red-700">{error}</p>}
    </fieldset>
  );
}

function CreateWebhookCard({ onCreated }: { onCreated: (created: CreatedWebhook) => void }) {
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [kinds, setKinds] = useState<string[]>([...WEBHOOK_EVENT_KINDS]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreateWebhook((created) => {
    setUrl("");
    setDescription("");
    setErrors({});
    onCreated(created);
  }, (error) => setErrors(serverFieldErrors(error)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (url.trim() === "" || create.isPending) return;
    create.mutate({ url: url.trim(), description: description.trim() || null, eventKinds: kinds });
  };
  return (
    <TitledCard
      title="Add Webhook"
      description="The registry POSTs each chosen event to this HTTPS address, signed with a secret shown once."
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            label="Endpoint URL"
            required
            type="url"
            maxLength={MAX_WEBHOOK_URL_LENGTH}
            value={url}
            error={errors.url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder="https://hooks.clearing.example/registry"
          />
          <TextField
            label="Description (optional)"
            maxLength={MAX_WEBHOOK_DESCRIPTION_LENGTH}
            value={description}
            error={errors.description}
            onChange={(event) => setDescription(event.target.value)}
            placeholder="e.g. Clearing house participant feed"
          />
        </div>
        <EventKindChoices
          chosen={kinds}
          onChange={setKinds}
          error={errors.eventKinds ?? errors["eventKinds.0"]}
        />
        <Button changes type="submit" disabled={url.trim() === "" || kinds.length === 0 || create.isPending}>
          {create.isPending ? "Adding…" : "Add Webhook"}
        </Button>
      </form>
    </TitledCard>
  );
}

function CreatedWebhookDialog({ created, onClose }: { created: CreatedWebhook | null; onClose: () => void }) {
  return (
    <ShownOnceSecretDialog
      secret={created?.secret ?? null}
      title="Webhook added"
      description="Copy the signing secret now. You will not see it again: the registry keeps it encrypted."
      fieldLabel="Signing secret"
      copyLabel="Copy signing secret"
      copiedText="The signing secret is on your clipboard."
      onClose={onClose}
    >
      Give it to the receiving system. It verifies each delivery's{" "}
      <code className="font-mono">webhook-signature</code> header with any Standard Webhooks library.
    </ShownOnceSecretDialog>
  );
}

function DeleteWebhookDialog({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const { toast } = useToast();
  const remove = useDeleteWebhook(() => {
    toast({ title: "Webhook removed", description: webhook?.url });
    onClose();
  });
  return (
    <Dialog
      open={webhook !== null}
      onClose={onClose}
      title="Remove webhook?"
      description={webhook
        ? `${webhook.url} receives nothing more; deliveries still waiting end as failed.`
        : undefined}
    >
      <DialogActions
        onCancel={onClose}
        variant="destructive"
        isPending={remove.isPending}
        label="Remove Webhook"
        pendingLabel="Removing…"
        onConfirm={() => webhook && remove.mutate(webhook.id)}
      />
    </Dialog>
  );
}

interface RowActions {
  onLog: (webhook: Webhook) => void;
  onToggle: (webhook: Webhook) => void;
  onDelete: (webhook: Webhook) => void;
}

function webhookColumns({ onLog, onToggle, onDelete }: RowActions): ColumnDef<Webhook>[] {
  return [
    {
      accessorKey: "url",
      header: "Endpoint",
      meta: { cellClassName: "break-all font-mono text-xs" },
      cell: ({ row }) => (
        <>
          {row.original.url}
          {row.original.description && (
            <span className="block font-sans text-slate-600">{row.original.description}</span>
          )}
        </>
      ),
    },
    {
      id: "eventKinds",
      header: "Events",
      enableSorting: false,
      cell: ({ row }) => row.original.eventKinds.map((kind) => EVENT_KIND_LABELS[kind] ?? kind).join(", "),
    },
    {
      accessorKey: "enabled",
      header: "Status",
      cell: ({ row }) =>
        row.original.enabled
          ? <Badge className="bg-green-800 text-white">enabled</Badge>
          : <Badge variant="outline" className="text-slate-700">disabled</Badge>,
    },
    { accessorKey: "createdAt", header: "Added", cell: ({ row }) => formatDate(row.original.createdAt) },
    actionsColumn((webhook) => (
      <div className="flex justify-end gap-2">
        <Button
          variant="outline"
          size="sm"
          aria-label={`Deliveries of ${webhook.url}`}
          onClick={() => onLog(webhook)}
        >
          Deliveries
        </Button>
        <Button changes
          variant="outline"
          size="sm"
          aria-label={`${webhook.enabled ? "Disable" : "Enable"} ${webhook.url}`}
          onClick={() => onToggle(webhook)}
        >
          {webhook.enabled ? "Disable" : "Enable"}
        </Button>
        <Button changes
          variant="outline"
          size="sm"
          aria-label={`Remove ${webhook.url}`}
          onClick={() => onDelete(webhook)}
        >
          Remove
        </Button>
      </div>
    )),
  ];
}

export function WebhooksTab() {
  const webhooks = useWebhooks();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const setEnabled = useSetWebhookEnabled();
  const columns = useMemo(() =>
    webhookColumns({
      onLog: (webhook) => setLogOf(webhook.id),
      onToggle: (webhook) => setEnabled.mutate({ id: webhook.id, enabled: !webhook.enabled }),
      onDelete: setDeleting,
    }), [setEnabled.mutate]);
  const list = webhooks.data ?? [];
  const shown = list.find((webhook) => webhook.id === logOf) ?? null;
  return (
    <div className="space-y-6">
      <CreateWebhookCard onCreated={setCreated} />
      <TitledCard
        title="Webhooks"
        description="Downstream systems told of institution status changes. A delivery is retried with back-off for about four hours."
      >
        <DataTable
          label="Webhooks"
          columns={columns}
          rows={list}
          isLoading={webhooks.isLoading}
          loadingRows={LOADING_ROWS}
          failure={loadFailure(webhooks, "Webhooks could not be loaded", "Only administrators can manage webhooks.")}
          empty={
            <EmptyState
              title="No webhooks yet"
              text="Add one above to tell a downstream system of status changes."
            />
          }
        />
      </TitledCard>
      {shown && <DeliveryLog webhook={shown} onClose={() => setLogOf(null)} />}
      <CreatedWebhookDialog created={created} onClose={() => setCreated(null)} />
      <DeleteWebhookDialog webhook={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
