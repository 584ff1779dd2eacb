/** One tab of the approval queue: a server-paged, sorted and filtered table of requests. */
import { useState } from "react";
import { type OneTimePassword, OneTimePasswordDialog } from "../../components/one_time_password_dialog.tsx";
import { DECIDING_ROLE } from "../../../domain/dual_control.ts";
import { scopeOfKind } from "../../../domain/approval.ts";
import { DataTable, type FilterDef, type SortingState } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { setSortParams } from "../../lib/api.ts";
import { type ApprovalRequest, APPROVALS_KEY } from "../../lib/approval.ts";
import { type AuthUser, useAuth, useMayCall } from "../../lib/auth.ts";
import { useServerPaging } from "../../lib/server_paging.ts";
import { useToast } from "../../lib/toast.ts";
import { type Decision, useApprovalPage, useWithdraw } from "./api.ts";
import { DecisionDialog } from "./decision_dialog.tsx";
import { requestColumns } from "./request_columns.tsx";
import { loadFailure } from "../../components/ui/load_failed.tsx";

const PAGE_SIZE = 100;

function pageKey(query: string, offset: number, sorting: SortingState, filterValues: Record<string, string>): string {
  const params = new URLSearchParams(query);
  params.set("limit", String(PAGE_SIZE));
  params.set("offset", String(offset));
  setSortParams(params, sorting);
  for (const [name, value] of Object.entries(filterValues)) if (value) params.set(name, value);
  return `${APPROVALS_KEY}?${params}`;
}

/**
 * Approvers decide requests about money, administrators requests about people and controls; the
 * server checks the rest (never one's own request, nor through a grant the requester made).
 */
function deciders(user: AuthUser | undefined) {
  const roleOf = (request: ApprovalRequest) => DECIDING_ROLE[scopeOfKind(request.kind)];
  return {
    decides: (request: ApprovalRequest) => (user?.roles ?? []).includes(roleOf(request)),
    deciderOf: (request: ApprovalRequest) =>
      roleOf(request) === "administrator" ? "a second administrator" : "an approver",
  };
}

export function RequestsTable({ query, urlKey, label, emptyText, filters }: {
  query: string;
  /** Prefix of the address's params for this table's sort, filters and page (one per tab). */
  urlKey: string;
  label: string;
  emptyText: string;
  /** Filters the server applies (by the column they name), on top of the tab's own `query`. */
  filters: readonly FilterDef[];
}) {
  const { user } = useAuth();
  const mayWithdraw = useMayCall("POST", "/api/approvals/:id/cancel");
  const { toast } = useToast();
  const [deciding, setDeciding] = useState<{ request: ApprovalRequest; decision: Decision } | null>(null);
  const [oneTime, setOneTime] = useState<OneTimePassword | null>(null);
  const withdraw = useWithdraw(() => toast({ title: "Request withdrawn" }));
  const columns = requestColumns({
    userId: user?.id,
    ...deciders(user),
    mayWithdraw,
    withdrawing: withdraw.isPending,
    onDecide: (request, decision) => setDeciding({ request, decision }),
    onWithdraw: (request) => withdraw.mutate(request.id),
  });
  const { offset, sorting, filterValues, paging } = useServerPaging(PAGE_SIZE, { key: urlKey, columns, filters });
  const narrowed = Object.values(filterValues).some(Boolean);
  const page = useApprovalPage(pageKey(query, offset, sorting, filterValues));
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={page.data?.items ?? []}
        isLoading={page.isLoading}
        filters={filters}
        failure={loadFailure(page, "Requests could not be loaded")}
        empty={<EmptyState title="No requests" text={narrowed ? "No request matches these filters." : emptyText} />}
        server={paging(page.data?.total ?? 0, page.isFetching)}
      />
      <DecisionDialog
        request={deciding?.request ?? null}
        decision={deciding?.decision ?? "approve"}
        onClose={() => setDeciding(null)}
        onPassword={setOneTime}
      />
      <OneTimePasswordDialog shown={oneTime} onClose={() => setOneTime(null)} />
    </>
  );
}
