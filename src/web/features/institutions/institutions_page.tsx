/**
 * Financial Institutions (spec 2.4): search, the registry table a page at a time, a status action
 * per row (Approve, Suspend, Reactivate), and the New Institution dialog.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSetAtom } from "jotai";
import { type FormEvent, useEffect, useState } from "react";
import { branchLabel, STATUS_ACTIONS } from "../../../domain/institution.ts";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { inputClassName, TextAreaField } from "../../components/ui/form.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { Skeleton } from "../../components/ui/spinner.tsx";
import { EmptyState, Table, TBody, Td, Th, THead, Tr } from "../../components/ui/table.tsx";
import { apiJson, apiRequest } from "../../lib/api.ts";
import { formatDate, titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { newInstitutionDialogOpenAtom } from "../../lib/ui_state.ts";
import { handleMutationError, isUnauthorizedError } from "../../lib/unauthorized.ts";
import { type Institution, INSTITUTIONS_KEY, REGISTRY_QUERY_KEYS } from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { useMayCall } from "../../lib/auth.ts";
import { type ApprovalRequest, type PendingApproval, useOnPendingApproval } from "../../lib/approval.ts";

const PENDING_STATUS_CHANGES_KEY = "/api/approvals?status=pending&kind=institution_status&limit=500";

export const PAGE_SIZE = 100;
const LOADING_ROWS = 5;
const COLUMN_COUNT = 7;

interface InstitutionPage {
  items: Institution[];
  total: number;
}

async function fetchPage(search: string, offset: number): Promise<InstitutionPage> {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
  if (search) params.set("search", search);
  const res = await apiRequest("GET", `${INSTITUTIONS_KEY}?${params}`);
  const items = (await res.json()) as Institution[];
  return { items, total: Number(res.headers.get("X-Total-Count") ?? items.length) };
}

/** Institutions with a status change waiting for a second person's approval. */
function usePendingStatusChanges(): ReadonlySet<string> {
  const { data } = useQuery<ApprovalRequest[]>({ queryKey: [PENDING_STATUS_CHANGES_KEY] });
  return new Set((data ?? []).map((request) => String(request.summary.institution?.id ?? "")));
}

/** A status change is a four-eyes request: the maker gives a reason, an approver executes it. */
function StatusAction({ institution, pending }: { institution: Institution; pending: boolean }) {
  const mayChangeStatus = useMayCall("PATCH", "/api/institutions/:id/status");
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const onPending = useOnPendingApproval();
  const action = STATUS_ACTIONS[institution.status];
  const change = useMutation({
    mutationFn: () =>
      apiJson<Institution | PendingApproval>("PATCH", `${INSTITUTIONS_KEY}/${encodeURIComponent(institution.id)}/status`, {
        status: action.to,
        requestReason: reason.trim(),
      }),
    onSuccess: (updated) => {
      setOpen(false);
      setReason("");
      if (onPending(updated)) return;
      toast({ title: action.done, description: `${updated.name} is now ${updated.status}.` });
      for (const queryKey of REGISTRY_QUERY_KEYS) queryClient.invalidateQueries({ queryKey });
    },
    onError: (failure) => handleMutationError(failure, toast, "Failed to update institution status"),
  });
  if (!mayChangeStatus) return null;
  if (pending) return <span className="text-xs font-medium text-amber-800">Approval pending</span>;
  return (
    <>
      <Button
        size="sm"
        variant={action.to === "suspended" ? "outline" : "default"}
        disabled={change.isPending}
        aria-label={`${action.label} ${institution.name}`}
        onClick={() => setOpen(true)}
      >
        {action.label}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`${action.label} ${institution.name}?`}
        description={`The status changes from ${institution.status} to ${action.to} once a second person with the approver role approves.`}
      >
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (!reason.trim()) {
              setError("Give a reason: this needs the approval of a second person");
              return;
            }
            if (!change.isPending) change.mutate();
          }}
        >
          <TextAreaField
            label="Reason for approval"
            required
            maxLength={1000}
            value={reason}
            error={error}
            onChange={(event) => {
              setReason(event.target.value);
              setError(null);
            }}
          />
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" disabled={change.isPending}>Submit for approval</Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

function LoadingRows() {
  return (
    <>
      {Array.from({ length: LOADING_ROWS }, (_, row) => (
        <Tr key={row}>
          {Array.from({ length: COLUMN_COUNT }, (_, cell) => (
            <Td key={cell}>
              <Skeleton className="h-4 w-full" />
            </Td>
          ))}
        </Tr>
      ))}
    </>
  );
}

export default function InstitutionsPage() {
  const pendingChanges = usePendingStatusChanges();
  const openDialog = useSetAtom(newInstitutionDialogOpenAtom);
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);

  const page = useQuery({
    queryKey: [INSTITUTIONS_KEY, { search, offset }],
    queryFn: () => fetchPage(search, offset),
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    if (page.isError && search !== "" && !isUnauthorizedError(page.error)) {
      handleMutationError(page.error, toast, "Failed to search institutions");
    }
  }, [page.isError, page.error, search]);

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    const next = text.trim();
    setOffset(0);
    setSearch(next);
    // Searching again for the same text (or reloading the full list) still asks the server.
    if (next === search && offset === 0) {
      queryClient.invalidateQueries({ queryKey: [INSTITUTIONS_KEY, { search: next, offset: 0 }] });
    }
  };

  const items = page.data?.items ?? [];
  const total = page.data?.total ?? 0;
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + PAGE_SIZE, total);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Financial Institutions"
        subtitle="Register, approve and supervise banks, credit unions and other institutions"
        actions={<IfAllowed method="POST" path="/api/institutions"><Button onClick={() => openDialog(true)}>New Institution</Button></IfAllowed>}
      />
      <Card>
        <CardContent className="space-y-4 pt-5">
          <form role="search" onSubmit={submitSearch} className="flex flex-wrap gap-2">
            <label htmlFor="institution-search" className="sr-only">Search institutions</label>
            <input
              id="institution-search"
              type="search"
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder="Search by name, registration number, licence number or e-mail"
              className={`${inputClassName} max-w-xl flex-1`}
            />
            <Button type="submit" variant="outline">Search</Button>
          </form>

          <Table label="Financial institutions">
            <THead>
              <tr>
                <Th>Institution</Th>
                <Th>Type</Th>
                <Th>Registration Number</Th>
                <Th>Status</Th>
                <Th>Contact</Th>
                <Th>Created</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <TBody>
              {page.isLoading && <LoadingRows />}
              {items.map((institution) => (
                <Tr key={institution.id}>
                  <Td>
                    <p className="font-medium text-slate-900">{institution.name}</p>
                    <p className="text-xs text-slate-600">{branchLabel(institution.numberOfBranches)}</p>
                  </Td>
                  <Td>{titleCase(institution.type)}</Td>
                  <Td className="font-mono text-xs">{institution.registrationNumber}</Td>
                  <Td>
                    <StatusBadge status={institution.status} />
                  </Td>
                  <Td>
                    <p>{institution.emailAddress}</p>
                    <p className="text-xs text-slate-600">{institution.phoneNumber}</p>
                  </Td>
                  <Td>{formatDate(institution.createdAt)}</Td>
                  <Td className="text-right">
                    <StatusAction institution={institution} pending={pendingChanges.has(institution.id)} />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>

          {page.isError && search === "" && (
            <p role="alert" className="text-sm text-red-700">Failed to load institutions.</p>
          )}
          {page.isSuccess && total === 0 && search === "" && (
            <EmptyState
              title="No institutions registered yet"
              text="Register the first financial institution to start the registry."
              action={<IfAllowed method="POST" path="/api/institutions"><Button onClick={() => openDialog(true)}>Register First Institution</Button></IfAllowed>}
            />
          )}
          {page.isSuccess && total === 0 && search !== "" && (
            <EmptyState title="No institutions match your search" text={`Nothing found for "${search}".`} />
          )}

          {total > 0 && (
            <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm text-slate-600" aria-live="polite">
                Showing {first.toLocaleString()}–{last.toLocaleString()} of {total.toLocaleString()}
              </p>
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={offset === 0 || page.isFetching}
                  onClick={() =>
                    setOffset(Math.max(0, offset - PAGE_SIZE))}
                >
                  Previous
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={offset + PAGE_SIZE >= total || page.isFetching}
                  onClick={() =>
                    setOffset(offset + PAGE_SIZE)}
                >
                  Next
                </Button>
              </div>
            </nav>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
