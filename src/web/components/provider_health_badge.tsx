/**
 * A fintech provider's health as a badge, shared by Fintech Operations and the Partnership
 * Expediter: blue only for a live provider known to work, amber for the sandbox and the unverified,
 * red for a failing one.
 */
import { PROVIDER_HEALTH_LABELS, type ProviderHealth } from "../../domain/fintech.ts";
import { Badge, type BadgeVariant } from "./ui/badge.tsx";

const HEALTH_STYLES: Record<ProviderHealth, { variant: BadgeVariant; className: string }> = {
  operational: { variant: "default", className: "" },
  sandbox: { variant: "secondary", className: "bg-amber-100 text-amber-900" },
  unverified: { variant: "secondary", className: "bg-amber-100 text-amber-900" },
  unavailable: { variant: "destructive", className: "" },
};

export function ProviderHealthBadge({ health }: { health: ProviderHealth }) {
  return <Badge {...HEALTH_STYLES[health]}>{PROVIDER_HEALTH_LABELS[health]}</Badge>;
}
