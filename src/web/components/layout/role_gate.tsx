import type { ReactNode } from "react";
import { useMayCall } from "../../lib/auth.ts";
import { NotAllowedPage } from "../../routes.tsx";
import { NAV_ITEMS } from "./nav_items.ts";

/**
 * A screen the sidebar hides from the user's roles (its nav entry names the route it cannot work
 * without) says whom it is for instead of asking the server for what it would refuse: reached by
 * its address, it neither loads its data nor fills the browser console with 403s.
 */
export function RoleGate({ path, children }: { path: string; children: ReactNode }) {
  const item = NAV_ITEMS.find((entry) => entry.path === path);
  if (!item || !("api" in item)) return <>{children}</>;
  return <Gated label={item.label} api={item.api}>{children}</Gated>;
}

function Gated({ label, api, children }: { label: string; api: readonly [string, string]; children: ReactNode }) {
  const [method, route] = api;
  if (useMayCall(method, route)) return <>{children}</>;
  return <NotAllowedPage title={label} method={method} path={route} />;
}
