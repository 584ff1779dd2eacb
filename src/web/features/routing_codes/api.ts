/** The routing codes' data: the list, the next code for a prefix, and assignment. */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { RoutingCode } from "../../../server/features/routing_codes/schemas.ts";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import { ROUTING_CODES_KEY, type RoutingCodeListItem } from "./types.ts";

export const PREFIX_LENGTH = 3;

export const useRoutingCodes = () => useQuery<RoutingCodeListItem[]>({ queryKey: [ROUTING_CODES_KEY] });

export const useAssignRoutingCode = (onAssigned: (record: RoutingCode) => void) =>
  useApiMutation({
    mutationFn: (
      input: { institutionId: string; prefix: string; branchCode: string; description: string; effectiveFrom: string | null },
    ) =>
      apiJson<RoutingCode>("POST", ROUTING_CODES_KEY, input),
    invalidates: [ROUTING_CODES_KEY],
    errorTitle: "Failed to assign routing code",
    onSuccess: onAssigned,
  });

/**
 * The code the server would assign next. Spec 5: asked for only at exactly three characters and
 * cleared otherwise; a failure is only logged.
 */
export function usePrefixPreview(prefix: string): string | null {
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    setPreview(null);
    if (prefix.length !== PREFIX_LENGTH) return;
    let current = true;
    apiJson<{ code: string }>("POST", "/api/routing-codes/generate-preview", { prefix })
      .then((result) => {
        if (current) setPreview(result.code);
      })
      .catch((error) => {
        if (current) console.error("Routing code preview failed", error);
      });
    return () => {
      current = false;
    };
  }, [prefix]);
  return preview;
}
