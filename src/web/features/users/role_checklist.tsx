/**
 * The roles of an account as checkboxes, with the separation of roles (src/domain/dual_control.ts)
 * applied as the administrator ticks: a role that may not be held with one already ticked cannot be
 * ticked, and a set held from before the rule says what is wrong with it until it is resolved.
 */
import { type Role, ROLE_LABELS, ROLES } from "../../../domain/access.ts";
import { roleConflict } from "../../../domain/dual_control.ts";

const ROLE_HINTS: Record<Role, string> = {
  administrator:
    "users, API keys, IBAN formats, approval settings, connection credentials; decides other administrators' requests",
  operator: "registers institutions and codes, creates accounts, requests sweeps and card funding",
  approver: "approves or rejects others' pending requests about money",
  auditor: "reads everything including the audit trail, changes nothing",
};

export const SEPARATION_NOTE =
  "An administrator is never also an operator or an approver (whoever grants powers does not use them), and an " +
  "auditor holds no other role.";

/** The ticked roles that `role` may not be held with. */
function clashesOf(role: Role, roles: readonly Role[]): Role[] {
  return roles.filter((held) => held !== role && roleConflict([held, role]) !== null);
}

/** Why the set may not be submitted: none, a conflict, or no role at all. */
export function rolesProblem(roles: readonly Role[]): string | null {
  if (roles.length === 0) return "Give at least one role";
  return roleConflict(roles);
}

export function RoleChecklist(
  { roles, onChange, error }: { roles: Role[]; onChange: (roles: Role[]) => void; error?: string | null },
) {
  const shown = error ?? roleConflict(roles);
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">Roles</legend>
      <p className="text-xs text-slate-600">{SEPARATION_NOTE}</p>
      {ROLES.map((role) => {
        const held = roles.includes(role);
        const clashes = held ? [] : clashesOf(role, roles);
        return (
          <label key={role} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-1"
              checked={held}
              disabled={clashes.length > 0}
              onChange={(event) =>
                onChange(event.target.checked ? [...roles, role] : roles.filter((other) => other !== role))}
            />
            <span>
              <span className="font-medium text-slate-900">{ROLE_LABELS[role]}</span>
              <span className="block text-xs text-slate-600">{ROLE_HINTS[role]}</span>
              {clashes.length > 0 && (
                <span className="block text-xs text-slate-700">
                  Not with {clashes.map((clash) => ROLE_LABELS[clash]).join(" or ")}
                </span>
              )}
            </span>
          </label>
        );
      })}
      {shown && <p role="alert" className="text-xs text-red-700">{shown}</p>}
    </fieldset>
  );
}
