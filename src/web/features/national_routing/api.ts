/** The national routing registry's data: the entries and registration. */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import { NATIONAL_ROUTING_KEY, type NationalRoutingEntry } from "./types.ts";

export const useNationalRoutingEntries = () => useQuery<NationalRoutingEntry[]>({ queryKey: [NATIONAL_ROUTING_KEY] });

export const useRegisterNationalEntry = (onRegistered: (entry: NationalRoutingEntry) => void) =>
  useApiMutation({
    mutationFn: (body: Record<string, unknown>) => apiJson<NationalRoutingEntry>("POST", NATIONAL_ROUTING_KEY, body),
    invalidates: [NATIONAL_ROUTING_KEY],
    errorTitle: "Failed to create national routing entry",
    onSuccess: onRegistered,
  });
