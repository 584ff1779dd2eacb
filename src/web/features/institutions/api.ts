/** The registry's data: pages of institutions, one institution's overview, registration and status changes. */
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SortingState } from "../../components/ui/data_table.tsx";
import { apiJson, apiPage, apiRequest, type Page, setSortParams } from "../../lib/api.ts";
import type { ApprovalRequest, PendingApproval } from "../../lib/approval.ts";
import { invalidateAll, useApiMutation, useApprovableMutation } from "../../lib/mutation.ts";
import { type Institution, INSTITUTIONS_KEY, REGISTRY_QUERY_KEYS } from "./types.ts";
import type { HistoryEntry } from "../../../server/registry_history/versions.ts";

export const PAGE_SIZE = 100;
const REGISTRY_KEYS = REGISTRY_QUERY_KEYS.map(([key]) => key);
const PENDING_STATUS_CHANGES_KEY = "/api/approvals?status=pending&kind=institution_status&limit=500";

export interface ListQuery {
  search: string;
  offset: number;
  sorting: SortingState;
  filters: Record<string, string>;
}

function pageUrl({ search, offset, sorting, filters }: ListQuery): string {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
  if (search) params.set("search", search);
  setSortParams(params, sorting);
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  return `${INSTITUTIONS_KEY}?${params}`;
}

export const useInstitutionPage = (query: ListQuery) =>
  useQuery<Page<Institution>>({
    queryKey: [INSTITUTIONS_KEY, query],
    queryFn: () => apiPage<Institution>(pageUrl(query)),
    placeholderData: keepPreviousData,
  });

export const useInstitutionOverview = <T>(id: string) =>
  useQuery<T>({
    queryKey: [INSTITUTIONS_KEY, id, "overview"],
    queryFn: async () => (await apiRequest("GET", `${INSTITUTIONS_KEY}/${encodeURIComponent(id)}/overview`)).json(),
  });

/** Institutions with a status change waiting for a second person's approval (one query for all rows). */
export function usePendingStatusChanges(): ReadonlySet<string> {
  const { data } = useQuery<ApprovalRequest[]>({ queryKey: [PENDING_STATUS_CHANGES_KEY] });
  return new Set((data ?? []).map((request) => String(request.summary.institution?.id ?? "")));
}

/** Every version of the institution, newest first, with who requested and approved it. */
export const useInstitutionHistory = (id: string) =>
  useQuery<HistoryEntry[]>({
    queryKey: [INSTITUTIONS_KEY, id, "history"],
    queryFn: async () => (await apiRequest("GET", `${INSTITUTIONS_KEY}/${encodeURIComponent(id)}/history`)).json(),
  });

/** Answers the changed institution, or null when the change waits for approval. */
export const useChangeStatus = (
  id: string,
  onChanged: (updated: Institution | null) => void,
  onFailed?: (error: Error) => void,
) =>
  useApprovableMutation({
    mutationFn: (body: Record<string, unknown>) =>
      apiJson<Institution | PendingApproval>("PATCH", `${INSTITUTIONS_KEY}/${encodeURIComponent(id)}/status`, body),
    errorTitle: "Failed to update institution status",
    onDone: onChanged,
    onError: onFailed,
    refresh: (queryClient) => invalidateAll(queryClient, REGISTRY_KEYS),
  });

/** An edit of the institution's details, at once or from a date: always a request for a second person. */
export const useEditInstitution = (id: string, onDone: () => void, onFailed: (error: Error) => void) =>
  useApprovableMutation({
    mutationFn: (body: Record<string, unknown>) =>
      apiJson<Institution | PendingApproval>("PATCH", `${INSTITUTIONS_KEY}/${encodeURIComponent(id)}`, body),
    errorTitle: "Failed to request the change",
    onDone,
    onError: onFailed,
    refresh: (queryClient) => invalidateAll(queryClient, REGISTRY_KEYS),
  });

export const useRegisterInstitution = <T extends object>(onRegistered: () => void, onFailed: (error: Error) => void) =>
  useApiMutation({
    mutationFn: (input: T) => apiJson<Institution>("POST", INSTITUTIONS_KEY, input),
    invalidates: REGISTRY_KEYS,
    errorTitle: "Failed to register institution",
    onSuccess: onRegistered,
    onError: onFailed,
  });

/** Asks the server again for one page, as searching twice for the same text does. */
export function useRefetchInstitutionPage(): (query: ListQuery) => void {
  const queryClient = useQueryClient();
  return (query) => queryClient.invalidateQueries({ queryKey: [INSTITUTIONS_KEY, query] });
}

/** The API's page-size limit: the picker offers every institution up to it. */
const INSTITUTION_OPTIONS_KEY = "/api/institutions?limit=500";

export const useInstitutionOptions = (open: boolean) =>
  useQuery<{ id: string; name: string }[]>({
    queryKey: [INSTITUTION_OPTIONS_KEY],
    enabled: open,
    // Institutions registered elsewhere since the last opening must be offered too.
    refetchOnMount: "always",
    staleTime: 0,
  });
