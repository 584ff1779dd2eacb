import type { ReactNode } from "react";
import { useMayCall } from "../lib/auth.ts";

/** Renders its children only for users whose roles open the route they act through (src/domain/access.ts). */
export function IfAllowed({ method, path, children }: { method: string; path: string; children: ReactNode }) {
  return useMayCall(method, path) ? <>{children}</> : null;
}
