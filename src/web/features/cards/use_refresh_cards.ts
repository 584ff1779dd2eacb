import { useQueryClient } from "@tanstack/react-query";
import { CARDS_KEY, FUNDING_SOURCES_KEY } from "./types.ts";

/** After any card mutation: the card list (spec 7) and the sources' balances both changed. */
export function useRefreshCards(): () => void {
  const queryClient = useQueryClient();
  return () => {
    queryClient.invalidateQueries({ queryKey: [CARDS_KEY] });
    queryClient.invalidateQueries({ queryKey: [FUNDING_SOURCES_KEY] });
  };
}
