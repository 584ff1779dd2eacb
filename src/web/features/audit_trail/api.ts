/** The audit trail's data: pages of events, the filter choices and the hash chain's state. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiPage, type Page } from "../../lib/api.ts";
import type { AuditEventDto as AuditEvent, ChainState } from "../../../server/features/audit_trail/service.ts";

export type { AuditEvent, ChainState };

export const AUDIT_KEY = "/api/audit-trail";

export const useAuditChain = () => useQuery<ChainState>({ queryKey: [`${AUDIT_KEY}/verification`] });

export const useAuditFacets = () =>
  useQuery<{ entityTypes: string[]; actions: string[] }>({ queryKey: [`${AUDIT_KEY}/facets`] });

export const useAuditPage = (key: string) =>
  useQuery<Page<AuditEvent>>({
    queryKey: [key],
    queryFn: () => apiPage<AuditEvent>(key),
    placeholderData: keepPreviousData,
  });
