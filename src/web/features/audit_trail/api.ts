/** The audit trail's data: pages of events, the filter choices and the hash chain's state. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiPage, type Page } from "../../lib/api.ts";

export const AUDIT_KEY = "/api/audit-trail";

export interface AuditEvent {
  id: string;
  seq: number;
  entityType: string;
  entityId: string;
  action: string;
  changes: unknown;
  performedBy: string;
  performedByName: string;
  performedAt: string;
  ipAddress: string | null;
}

export type ChainState =
  | { verified: true; verifiedUpToSeq: number; checked: number }
  | {
    verified: false;
    verifiedUpToSeq: number;
    checked: number;
    firstBroken: { seq: number; reason: string };
  };

export const useAuditChain = () => useQuery<ChainState>({ queryKey: [`${AUDIT_KEY}/verification`] });

export const useAuditFacets = () =>
  useQuery<{ entityTypes: string[]; actions: string[] }>({ queryKey: [`${AUDIT_KEY}/facets`] });

export const useAuditPage = (key: string) =>
  useQuery<Page<AuditEvent>>({
    queryKey: [key],
    queryFn: () => apiPage<AuditEvent>(key),
    placeholderData: keepPreviousData,
  });
