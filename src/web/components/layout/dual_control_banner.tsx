/**
 * For administrators, on every screen: that dual control is not yet in force (one administrator acts
 * alone), and how many accounts hold roles that may not be held together.
 */
import { Link } from "react-router";
import { useDualControl } from "../../lib/dual_control.ts";

function conflictText(count: number): string {
  const [who, they] = count === 1 ? ["1 account holds", "it"] : [`${count} accounts hold`, "they"];
  return `${who} roles that may not be held together: ${they} can neither request nor approve until an administrator ` +
    "changes the roles.";
}

export function DualControlBanner() {
  const { data } = useDualControl();
  if (!data) return null;
  const conflicts = data.roleConflicts.length;
  return (
    <>
      {!data.inForce && (
        <div
          role="status"
          className="border-b border-amber-300 bg-amber-50 px-6 py-2 text-sm text-amber-950"
          data-testid="dual-control-banner"
        >
          <p className="font-semibold">Dual control is not in force: one administrator</p>
          <p className="text-xs">
            Add a second administrator on the <Link to="/users" className="font-medium underline">Users</Link>
            {" "}
            screen. Until then your changes take effect at once, and each is marked in the audit trail as made
            by an administrator acting alone.
          </p>
        </div>
      )}
      {conflicts > 0 && (
        <div
          role="status"
          className="border-b border-red-300 bg-red-50 px-6 py-2 text-sm text-red-900"
          data-testid="role-conflict-banner"
        >
          {conflictText(conflicts)} <Link to="/users" className="font-medium underline">Open Users</Link>
        </div>
      )}
    </>
  );
}
