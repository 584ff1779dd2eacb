import type { ReactNode } from "react";
import { useMayCall } from "../lib/auth.ts";
import { ChangesScope } from "../lib/changes_paused.ts";

/** Methods that only read: every other route changes something, and pauses with the node's changes. */
const READ_METHODS = new Set(["GET", "HEAD"]);

/**
 * Renders its children only for users whose roles open the route they act through (src/domain/access.ts);
 * the buttons among them are changes, paused while the node refuses changes, unless the route only reads.
 */
export function IfAllowed({ method, path, children }: { method: string; path: string; children: ReactNode }) {
  const allowed = useMayCall(method, path);
  if (!allowed) return null;
  return <ChangesScope.Provider value={!READ_METHODS.has(method)}>{children}</ChangesScope.Provider>;
}
