/** The Partnership Expediter's data: the recorded expedition requests and the account-data provider's health. */
import { useQuery } from "@tanstack/react-query";
import type { ExpeditionStatus } from "../../../domain/expedition.ts";
import type { ProviderStatus } from "../../../server/features/fintech/service.ts";
import type {
  CreateExpeditionRequestInput,
  ExpeditionRequest,
} from "../../../server/features/expedition_requests/schemas.ts";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";

export type { ExpeditionRequest };

export const EXPEDITION_REQUESTS_KEY = "/api/expedition-requests";
const FINTECH_STATUS_KEY = "/api/fintech/status";

export const useExpeditionRequests = () => useQuery<ExpeditionRequest[]>({ queryKey: [EXPEDITION_REQUESTS_KEY] });

/** The account data services card shows the live state of the account-data provider (Plaid). */
export const useAccountDataProvider = () =>
  useQuery<{ plaid: ProviderStatus }, Error, ProviderStatus>({
    queryKey: [FINTECH_STATUS_KEY],
    select: (status) => status.plaid,
  });

export const useFileExpedition = (
  onFiled: (request: ExpeditionRequest) => void,
  onError: (error: Error) => void,
) =>
  useApiMutation({
    mutationFn: (body: CreateExpeditionRequestInput) =>
      apiJson<ExpeditionRequest>("POST", EXPEDITION_REQUESTS_KEY, body),
    invalidates: [EXPEDITION_REQUESTS_KEY],
    errorTitle: "Expedition request not recorded",
    onSuccess: onFiled,
    onError,
  });

export const useMoveExpedition = () =>
  useApiMutation({
    mutationFn: ({ id, status }: { id: string; status: ExpeditionStatus }) =>
      apiJson<ExpeditionRequest>("PATCH", `${EXPEDITION_REQUESTS_KEY}/${encodeURIComponent(id)}`, { status }),
    invalidates: [EXPEDITION_REQUESTS_KEY],
    errorTitle: "Status not changed",
  });
