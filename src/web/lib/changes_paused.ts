/**
 * While a regional node cannot reach headquarters every change is refused (docs/deployment.md), so
 * every control that would change something is disabled meanwhile, with the server's reason. The
 * shell reads the replication state once and provides the reason; the shared Button reads it for
 * each control marked as a change: by its `changes` prop, or by sitting inside a ChangesScope
 * (IfAllowed opens one for every route that is not a read).
 */
import { createContext, useContext } from "react";
import { useReplicationState } from "./replication.ts";

/** The reason changes are paused now; null while they are accepted. */
export const ChangesPausedContext = createContext<string | null>(null);

/** Whether the controls below act through a route that changes something. */
export const ChangesScope = createContext(false);

/** The reason the shell provides: the server's own message while this node refuses changes. */
export function useChangesPausedState(): string | null {
  const { data } = useReplicationState();
  if (!data || data.changesAccepted) return null;
  return data.pausedMessage ?? "Changes are paused: headquarters cannot be reached.";
}

/** Why changes are refused now, or null while they are accepted. */
export function useChangesPaused(): string | null {
  return useContext(ChangesPausedContext);
}

/** Whether the control at hand changes something: its own word, else the scope it sits in. */
export function useIsChange(own: boolean | undefined): boolean {
  const scoped = useContext(ChangesScope);
  return own ?? scoped;
}
