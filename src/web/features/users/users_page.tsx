/**
 * Users (administrators): create a user with roles and a one-time password, change roles, disable
 * or re-enable, reset a password, confirm roles one administrator granted alone. The one-time
 * password is shown once, to the administrator. Accounts whose roles conflict, and roles that still
 * await a second administrator's confirmation, are flagged on their row.
 */
import { useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { type OneTimePassword, OneTimePasswordDialog } from "../../components/one_time_password_dialog.tsx";
import { Badge, StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { type ColumnDef, DataTable, type FilterDef } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { ROLE_LABELS, ROLES } from "../../../domain/access.ts";
import { useAuth, userLabel } from "../../lib/auth.ts";
import { formatDate, titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import { type StaffUser, useConfirmRoles, useStaffUsers, useToggleUser } from "./api.ts";
import { type AccountChange, AccountChangeDialog, CreateUserDialog, RolesDialog } from "./user_dialogs.tsx";
import { IdentitiesDialog } from "./identities_dialog.tsx";
import { loadFailure } from "../../components/ui/load_failed.tsx";

type AccountState = "active" | "must change password" | "disabled";

/** What the Status column shows and filters on. */
function accountState(user: { disabled: boolean; mustChangePassword: boolean }): AccountState {
  return user.disabled ? "disabled" : user.mustChangePassword ? "must change password" : "active";
}

const ACCOUNT_STATES: readonly AccountState[] = ["active", "must change password", "disabled"];

const FILTERS: FilterDef[] = [
  {
    columnId: "roles",
    label: "Filter by role",
    allLabel: "All roles",
    options: ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] })),
  },
  {
    columnId: "status",
    label: "Filter by status",
    allLabel: "All statuses",
    options: ACCOUNT_STATES.map((state) => ({ value: state, label: titleCase(state) })),
  },
];

const UNCONFIRMED_TITLE =
  "Granted by one administrator alone: it decides nothing until a second administrator confirms it";

interface UserActions {
  onRoles: (user: StaffUser) => void;
  onIdentities: (user: StaffUser) => void;
  onChange: (change: AccountChange) => void;
  disable: { mutate: (user: StaffUser) => void; isPending: boolean };
  confirm: { mutate: (user: StaffUser) => void; isPending: boolean };
  myId: string | undefined;
}

function UserActionsCell({ user, actions }: { user: StaffUser; actions: UserActions }) {
  const { onRoles, onIdentities, onChange, disable, confirm, myId } = actions;
  const own = user.id === myId;
  return (
    <div className="flex flex-wrap justify-end gap-2">
      {user.unconfirmedRoles.length > 0 && !own && (
        <Button changes size="sm" onClick={() => confirm.mutate(user)} disabled={confirm.isPending}>Confirm roles</Button>
      )}
      <Button changes size="sm" variant="outline" onClick={() => onRoles(user)}>Roles</Button>
      <Button size="sm" variant="outline" onClick={() => onIdentities(user)}>Identities</Button>
      <Button changes size="sm" variant="outline" onClick={() => onChange({ user, action: "reset" })}>Reset password</Button>
      {user.disabled
        ? <Button changes size="sm" variant="outline" onClick={() => onChange({ user, action: "enable" })}>Re-enable</Button>
        : (
          <Button changes size="sm" variant="destructive" onClick={() => disable.mutate(user)} disabled={disable.isPending || own}>
            Disable
          </Button>
        )}
    </div>
  );
}

/** The roles held, then what is wrong with them: a conflict, or roles that await confirmation. */
function RolesCell({ user }: { user: StaffUser }) {
  return (
    <div className="flex flex-wrap gap-1">
      {user.roles.map((role) => <Badge key={role} variant="secondary">{ROLE_LABELS[role]}</Badge>)}
      {user.roleConflict && (
        <Badge variant="destructive" title={user.roleConflict}>
          Role conflict<span className="sr-only">: {user.roleConflict}</span>
        </Badge>
      )}
      {user.unconfirmedRoles.length > 0 && (
        <Badge variant="outline" title={UNCONFIRMED_TITLE}>
          Unconfirmed: {user.unconfirmedRoles.map((role) => ROLE_LABELS[role]).join(", ")}
          <span className="sr-only">. {UNCONFIRMED_TITLE}</span>
        </Badge>
      )}
    </div>
  );
}

function userColumns(actions: UserActions): ColumnDef<StaffUser>[] {
  return [
    {
      id: "user",
      header: "User",
      accessorFn: (user) => userLabel(user),
      cell: ({ row }) => (
        <>
          <p className="font-medium text-slate-900">{userLabel(row.original)}</p>
          <p className="text-xs text-slate-600">{row.original.email}</p>
        </>
      ),
    },
    {
      id: "roles",
      header: "Roles",
      accessorFn: (user) => user.roles,
      enableSorting: false,
      filterFn: "arrIncludes",
      cell: ({ row }) => <RolesCell user={row.original} />,
    },
    {
      id: "status",
      header: "Status",
      accessorFn: accountState,
      filterFn: "equals",
      cell: ({ row }) =>
        row.original.disabled
          ? <Badge variant="destructive">disabled</Badge>
          : row.original.mustChangePassword
          ? <Badge variant="outline">must change password</Badge>
          : <StatusBadge status="active" />,
    },
    { accessorKey: "createdAt", header: "Created", cell: ({ row }) => formatDate(row.original.createdAt) },
    {
      id: "actions",
      header: "Actions",
      enableSorting: false,
      meta: { cellClassName: "text-right" },
      cell: ({ row }) => <UserActionsCell user={row.original} actions={actions} />,
    },
  ];
}

function useUserActions(
  onRoles: (user: StaffUser) => void,
  onIdentities: (user: StaffUser) => void,
  onChange: (change: AccountChange) => void,
) {
  const { user: me } = useAuth();
  const { toast } = useToast();
  // Disabling only takes power away: it acts at once, under dual control too.
  const toggle = useToggleUser(
    (updated) => updated && toast({ title: "User disabled; their sessions ended", description: updated.email }),
    (error) => handleMutationError(error, toast, "Failed to change the user"),
  );
  const confirm = useConfirmRoles((confirmed) =>
    toast({ title: "Roles confirmed", description: `${confirmed.email}: the roles now decide` })
  );
  return {
    onRoles,
    onIdentities,
    onChange,
    disable: { mutate: (user: StaffUser) => toggle.mutate({ user, requestReason: "" }), isPending: toggle.isPending },
    confirm: { mutate: confirm.mutate, isPending: confirm.isPending },
    myId: me?.id,
  };
}

export default function UsersPage() {
  const query = useStaffUsers();
  const { data, isLoading } = query;
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<StaffUser | null>(null);
  const [changing, setChanging] = useState<AccountChange | null>(null);
  const [identitiesOf, setIdentitiesOf] = useState<StaffUser | null>(null);
  const [oneTime, setOneTime] = useState<OneTimePassword | null>(null);
  const users = data ?? [];
  const columns = userColumns(useUserActions(setEditing, setIdentitiesOf, setChanging));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Users"
        subtitle="Staff accounts and their roles"
        actions={<Button changes onClick={() => setCreating(true)}>New User</Button>}
      />
      <DataTable
        label="Users"
        columns={columns}
        rows={users}
        isLoading={isLoading}
        filters={FILTERS}
        failure={loadFailure(query, "Users could not be loaded")}
        empty={users.length === 0
          ? <EmptyState title="No users" />
          : <EmptyState title="No users match these filters" text="Choose another role or status." />}
      />
      <CreateUserDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={setOneTime}
      />
      <RolesDialog user={editing} onClose={() => setEditing(null)} />
      <IdentitiesDialog user={identitiesOf} onClose={() => setIdentitiesOf(null)} />
      <AccountChangeDialog change={changing} onClose={() => setChanging(null)} onPassword={setOneTime} />
      <OneTimePasswordDialog shown={oneTime} onClose={() => setOneTime(null)} />
    </div>
  );
}
