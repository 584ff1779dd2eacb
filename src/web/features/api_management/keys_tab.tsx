/** API keys (administrators): create one (shown once, with a copy button), list them, revoke one. */
import { type FormEvent, useMemo, useState } from "react";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { formatDate, formatDateTime } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { MAX_API_KEY_NAME_LENGTH } from "../../../domain/public_api.ts";
import { ShownOnceSecretDialog } from "./secret_dialog.tsx";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "./api.ts";
import type { ApiKey, ApiKeyStatus, CreatedApiKey } from "./types.ts";
import { TitledCard } from "../../components/ui/card.tsx";
import { DialogActions } from "../../components/dialog_actions.tsx";
import { actionsColumn } from "../../components/columns.tsx";
import { loadFailure } from "../../components/ui/load_failed.tsx";

const LOADING_ROWS = 3;

function KeyStatusBadge({ status }: { status: ApiKeyStatus }) {
  if (status === "active") return <Badge className="bg-green-800 text-white">active</Badge>;
  if (status === "revoked") return <Badge variant="destructive">revoked</Badge>;
  return <Badge variant="outline" className="text-slate-700">expired</Badge>;
}

/** Today in the browser's calendar, as the date input's minimum. */
function todayIso(): string {
  const now = new Date();
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

function CreateKeyCard({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const [name, setName] = useState("");
  const [expiresOn, setExpiresOn] = useState("");
  const create = useCreateApiKey((created) => {
    setName("");
    setExpiresOn("");
    onCreated(created);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === "" || create.isPending) return;
    create.mutate({ name: name.trim(), expiresAt: expiresOn || null });
  };
  return (
    <TitledCard
      title="Create API Key"
      description="Give the key a name that says who uses it. The key is shown once; only its fingerprint is stored."
    >
      <form noValidate onSubmit={submit} className="grid items-start gap-4 sm:grid-cols-[2fr_1fr_auto]">
        <TextField
          label="Key name"
          required
          maxLength={MAX_API_KEY_NAME_LENGTH}
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="e.g. Clearing house integration"
        />
        <TextField
          label="Valid through (optional)"
          hint="Last day the key works (UTC); empty means no expiry"
          type="date"
          min={todayIso()}
          value={expiresOn}
          onChange={(event) => setExpiresOn(event.target.value)}
        />
        <Button changes type="submit" className="sm:mt-6" disabled={name.trim() === "" || create.isPending}>
          {create.isPending ? "Creating…" : "Create Key"}
        </Button>
      </form>
    </TitledCard>
  );
}

function CreatedKeyDialog({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  return (
    <ShownOnceSecretDialog
      secret={created?.key ?? null}
      title="API key created"
      description="Copy this key now. You will not see it again: the registry keeps only a fingerprint of it."
      fieldLabel={`API key "${created?.name ?? ""}"`}
      copyLabel="Copy API key"
      copiedText="The API key is on your clipboard."
      onClose={onClose}
    >
      Store it in your secrets manager. Send it as{" "}
      <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>.
      {created?.expiresAt ? ` It expires on ${formatDateTime(created.expiresAt)}.` : " It does not expire."}
    </ShownOnceSecretDialog>
  );
}

function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const { toast } = useToast();
  const revoke = useRevokeApiKey((revoked) => {
    toast({
      title: "API key revoked",
      description: `${revoked.name} (${revoked.keyPrefix}…) no longer works`,
    });
    onClose();
  });
  return (
    <Dialog
      open={apiKey !== null}
      onClose={onClose}
      title="Revoke API key?"
      description={apiKey
        ? `"${apiKey.name}" (${apiKey.keyPrefix}…) stops working at once, on every server. This cannot be undone.`
        : undefined}
    >
      <DialogActions
        onCancel={onClose}
        variant="destructive"
        isPending={revoke.isPending}
        label="Revoke Key"
        pendingLabel="Revoking…"
        onConfirm={() => apiKey && revoke.mutate(apiKey.id)}
      />
    </Dialog>
  );
}

function keyColumns(onRevoke: (apiKey: ApiKey) => void): ColumnDef<ApiKey>[] {
  return [
    { accessorKey: "name", header: "Name", meta: { cellClassName: "font-medium" } },
    {
      accessorKey: "keyPrefix",
      header: "Key",
      enableSorting: false,
      meta: { cellClassName: "font-mono text-xs" },
      cell: ({ row }) => `${row.original.keyPrefix}…`,
    },
    {
      accessorKey: "status",
      header: "Status",
      cell: ({ row }) => <KeyStatusBadge status={row.original.status} />,
    },
    { accessorKey: "createdAt", header: "Created", cell: ({ row }) => formatDate(row.original.createdAt) },
    {
      id: "lastUsedAt",
      header: "Last used",
      accessorFn: (apiKey) => apiKey.lastUsedAt ?? "",
      cell: ({ row }) => (row.original.lastUsedAt ? formatDateTime(row.original.lastUsedAt) : "Never"),
    },
    {
      id: "expiresAt",
      header: "Expires",
      accessorFn: (apiKey) => apiKey.expiresAt ?? "9999",
      cell: ({ row }) => (row.original.expiresAt ? formatDateTime(row.original.expiresAt) : "Never"),
    },
    actionsColumn((apiKey) =>
      apiKey.status !== "revoked" && (
        <Button changes variant="outline" size="sm" aria-label={`Revoke ${apiKey.name}`} onClick={() => onRevoke(apiKey)}>
          Revoke
        </Button>
      )
    ),
  ];
}

export function KeysTab() {
  const keys = useApiKeys();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const list = keys.data ?? [];
  const columns = useMemo(() => keyColumns(setRevoking), []);
  return (
    <div className="space-y-6">
      <CreateKeyCard onCreated={setCreated} />
      <TitledCard
        title="API Keys"
        description="Newest first. A revoked or expired key answers 401 Unauthorized."
      >
        <DataTable
          label="API keys"
          columns={columns}
          rows={list}
          isLoading={keys.isLoading}
          loadingRows={LOADING_ROWS}
          failure={loadFailure(keys, "API keys could not be loaded", "Only administrators can manage API keys.")}
          empty={
            <EmptyState
              title="No API keys yet"
              text="Create a key above to let a bank or payment system call the API."
            />
          }
        />
      </TitledCard>
      <CreatedKeyDialog created={created} onClose={() => setCreated(null)} />
      <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </div>
  );
}
