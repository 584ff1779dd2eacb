/** The connections' data: the list, the partner's configuration, creation, the partner link and live tests. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import { useToast } from "../../lib/toast.ts";
import { isUnauthorizedError, redirectToLogin } from "../../lib/unauthorized.ts";
import {
  type Connection,
  CONNECTIONS_KEY,
  type ConnectionTestResult,
  ESTABLISH_PARTNER_PATH,
  PARTNER_CONFIG_KEY,
  type PartnerConfig,
} from "./types.ts";

export const useConnections = () => useQuery<Connection[]>({ queryKey: [CONNECTIONS_KEY] });

export const usePartnerConfig = () => useQuery<PartnerConfig>({ queryKey: [PARTNER_CONFIG_KEY] });

export const useCreateConnection = (onCreated: (connection: Connection) => void) =>
  useApiMutation({
    mutationFn: (body: Record<string, unknown>) => apiJson<Connection>("POST", CONNECTIONS_KEY, body),
    // A connection created active is untested until its first test: the dashboard's alert names it.
    invalidates: [CONNECTIONS_KEY, "/api/dashboard/alerts"],
    errorTitle: "Failed to create central bank connection",
    onSuccess: onCreated,
  });

export const useEstablishPartner = (onEstablished: (connection: Connection) => void) =>
  useApiMutation({
    mutationFn: () => apiJson<Connection>("POST", ESTABLISH_PARTNER_PATH, {}),
    invalidates: [CONNECTIONS_KEY],
    errorTitle: "Failed to establish Loc connection",
    onSuccess: onEstablished,
  });

/** Every test, whatever its outcome, refreshes the list (a success records lastConnectedAt and may activate). */
export function useTestConnection(onTested: (result: ConnectionTestResult) => void) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  return useMutation({
    mutationFn: (id: string) => apiJson<ConnectionTestResult>("POST", `${CONNECTIONS_KEY}/${id}/test`),
    onSuccess: onTested,
    onError: (error) => {
      if (isUnauthorizedError(error)) return redirectToLogin(toast);
      toast({ title: "Test Failed", description: "Failed to test connection", variant: "destructive" });
    },
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: [CONNECTIONS_KEY] });
      // The dashboard's operational-status alert follows each connection's last test.
      queryClient.invalidateQueries({ queryKey: ["/api/dashboard/alerts"] });
    },
  });
}
