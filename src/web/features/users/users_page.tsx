/**
 * Users (administrators): create a user with roles and a one-time password, change roles,
 * disable or re-enable, reset a password. The one-time password is shown once, to the administrator.
 */
import { type FormEvent, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Badge, StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable, type FilterDef } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { type Role, ROLE_LABELS, ROLES } from "../../../domain/access.ts";
import { ApiError } from "../../lib/api.ts";
import { useAuth, userLabel } from "../../lib/auth.ts";
import { formatDate, titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import {
  type StaffUser,
  useCreateUser,
  useResetPassword,
  useSetRoles,
  useStaffUsers,
  useToggleUser,
} from "./api.ts";
import { DialogActions } from "../../components/dialog_actions.tsx";
import { IdentitiesDialog } from "./identities_dialog.tsx";

type AccountState = "active" | "must change password" | "disabled";

/** What the Status column shows and filters on. */
function accountState(user: { disabled: boolean; mustChangePassword: boolean }): AccountState {
  return user.disabled ? "disabled" : user.mustChangePassword ? "must change password" : "active";
}

const ACCOUNT_STATES: readonly AccountState[] = ["active", "must change password", "disabled"];

const ROLE_HINTS: Record<Role, string> = {
  administrator: "users, API keys, IBAN formats, approval settings, connection credentials",
  operator: "registers institutions and codes, creates accounts, requests sweeps and card funding",
  approver: "approves or rejects others' pending requests",
  auditor: "reads everything including the audit trail, changes nothing",
};

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

function RoleChecklist(
  { roles, onChange, error }: { roles: Role[]; onChange: (roles: Role[]) => void; error?: string },
) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">Roles</legend>
      {ROLES.map((role) => (
        <label key={role} className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-1"
            checked={roles.includes(role)}
            onChange={(event) =>
              onChange(event.target.checked ? [...roles, role] : roles.filter((held) => held !== role))}
          />
          <span>
            <span className="font-medium text-slate-900">{ROLE_LABELS[role]}</span>
            <span className="block text-xs text-slate-600">{ROLE_HINTS[role]}</span>
          </span>
        </label>
      ))}
      {error && <p role="alert" className="text-xs text-red-700">{error}</p>}
    </fieldset>
  );
}

function OneTimePasswordDialog(
  { shown, onClose }: { shown: { email: string; password: string } | null; onClose: () => void },
) {
  return (
    <Dialog
      open={shown !== null}
      onClose={onClose}
      title="One-time password"
      description="Give this password to the user through a safe channel. It is shown only now; the user must replace it at the first sign-in."
    >
      {shown && (
        <div className="space-y-4">
          <TextField
            label={`Initial password for ${shown.email}`}
            readOnly
            value={shown.password}
            className="font-mono"
            onFocus={(event) => event.target.select()}
          />
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

function NameFields({ firstName, lastName, setFirstName, setLastName }: {
  firstName: string;
  lastName: string;
  setFirstName: (name: string) => void;
  setLastName: (name: string) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField label="First name" maxLength={255} value={firstName} onChange={(event) => setFirstName(event.target.value)} />
      <TextField label="Last name" maxLength={255} value={lastName} onChange={(event) => setLastName(event.target.value)} />
    </div>
  );
}

function CreateUserDialog({ open, onClose, onCreated }: {
  open: boolean;
  onClose: () => void;
  onCreated: (email: string, password: string) => void;
}) {
  const [email, setEmail] = useState("");
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [roles, setRoles] = useState<Role[]>(["operator"]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { toast } = useToast();
  const create = useCreateUser((created) => {
    setEmail("");
    setFirstName("");
    setLastName("");
    setRoles(["operator"]);
    onCreated(created.user.email, created.initialPassword);
  }, (error) => {
    if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
      const body = JSON.parse(error.bodyText);
      setErrors(body.fields ?? { email: body.message });
      return;
    }
    handleMutationError(error, toast, "Failed to create the user");
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (roles.length === 0) {
      setErrors({ roles: "Give at least one role" });
      return;
    }
    if (!create.isPending) create.mutate({ email, firstName, lastName, roles });
  };
  return (
    <Dialog open={open} onClose={onClose} title="New user" description="The user gets a one-time password.">
      <form onSubmit={submit} className="space-y-4">
        <TextField
          label="E-mail address"
          type="email"
          required
          maxLength={255}
          value={email}
          error={errors.email}
          onChange={(event) =>
            setEmail(event.target.value)}
        />
        <NameFields firstName={firstName} lastName={lastName} setFirstName={setFirstName} setLastName={setLastName} />
        <RoleChecklist roles={roles} onChange={setRoles} error={errors.roles} />
        <DialogActions onCancel={onClose} isPending={create.isPending} label="Create user" pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}

function RolesDialog({ user, onClose }: { user: StaffUser | null; onClose: () => void }) {
  const [roles, setRoles] = useState<Role[] | null>(null);
  const { toast } = useToast();
  const shown = roles ?? user?.roles ?? [];
  const save = useSetRoles((updated) => {
    toast({
      title: "Roles changed",
      description: `${updated.email}: ${updated.roles.map((r) => ROLE_LABELS[r]).join(", ")}`,
    });
    setRoles(null);
    onClose();
  });
  return (
    <Dialog
      open={user !== null}
      onClose={() => {
        setRoles(null);
        onClose();
      }}
      title={`Roles of ${user?.email ?? ""}`}
      description="A change applies to the user's very next request."
    >
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (shown.length > 0) save.mutate({ id: user?.id, roles: shown });
        }}
      >
        <RoleChecklist
          roles={shown}
          onChange={setRoles}
          error={shown.length === 0 ? "Give at least one role" : undefined}
        />
        <div className="flex justify-end gap-2">
          <Button
            variant="outline"
            onClick={() => {
              setRoles(null);
              onClose();
            }}
          >
            Cancel
          </Button>
          <Button type="submit" disabled={shown.length === 0 || save.isPending}>Save roles</Button>
        </div>
      </form>
    </Dialog>
  );
}

interface UserActions {
  onRoles: (user: StaffUser) => void;
  onIdentities: (user: StaffUser) => void;
  reset: { mutate: (user: StaffUser) => void; isPending: boolean };
  toggle: { mutate: (user: StaffUser) => void; isPending: boolean };
  myId: string | undefined;
}

function UserActionsCell(
  { user, actions: { onRoles, onIdentities, reset, toggle, myId } }: { user: StaffUser; actions: UserActions },
) {
  return (
    <div className="flex justify-end gap-2">
      <Button size="sm" variant="outline" onClick={() => onRoles(user)}>Roles</Button>
      <Button size="sm" variant="outline" onClick={() => onIdentities(user)}>Identities</Button>
      <Button
        size="sm"
        variant="outline"
        onClick={() => reset.mutate(user)}
        disabled={reset.isPending}
      >
        Reset password
      </Button>
      <Button
        size="sm"
        variant={user.disabled ? "outline" : "destructive"}
        onClick={() => toggle.mutate(user)}
        disabled={toggle.isPending || user.id === myId}
      >
        {user.disabled ? "Re-enable" : "Disable"}
      </Button>
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
      cell: ({ row }) => (
        <div className="flex flex-wrap gap-1">
          {row.original.roles.map((role) => <Badge key={role} variant="secondary">{ROLE_LABELS[role]}
          </Badge>)}
        </div>
      ),
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

export default function UsersPage() {
  const { user: me } = useAuth();
  const { data, isLoading } = useStaffUsers();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<StaffUser | null>(null);
  const [identitiesOf, setIdentitiesOf] = useState<StaffUser | null>(null);
  const [oneTime, setOneTime] = useState<{ email: string; password: string } | null>(null);
  const { toast } = useToast();
  const toggle = useToggleUser((updated) =>
    toast({
      title: updated.disabled ? "User disabled; their sessions ended" : "User re-enabled",
      description: updated.email,
    })
  );
  const reset = useResetPassword(setOneTime);
  const users = data ?? [];
  const columns = userColumns({
    onRoles: setEditing,
    onIdentities: setIdentitiesOf,
    reset,
    toggle,
    myId: me?.id,
  });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Users"
        subtitle="Staff accounts and their roles"
        actions={<Button onClick={() => setCreating(true)}>New User</Button>}
      />
      <DataTable
        label="Users"
        columns={columns}
        rows={users}
        isLoading={isLoading}
        filters={FILTERS}
        empty={users.length === 0
          ? <EmptyState title="No users" />
          : <EmptyState title="No users match these filters" text="Choose another role or status." />}
      />
      <CreateUserDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(email, password) => {
          setCreating(false);
          setOneTime({ email, password });
        }}
      />
      <RolesDialog user={editing} onClose={() => setEditing(null)} />
      <IdentitiesDialog user={identitiesOf} onClose={() => setIdentitiesOf(null)} />
      <OneTimePasswordDialog shown={oneTime} onClose={() => setOneTime(null)} />
    </div>
  );
}
