/**
 * Financial Institutions (spec 2.4): search, the registry table a page at a time (sorted and filtered
 * by the server), a status action per row (Request approval, Suspend, Reactivate), and the New Institution dialog,
 * opened from the header's New menu (or the empty registry's own button).
 */
import { useSetAtom } from "jotai";
import { type FormEvent, useEffect, useState } from "react";
import { branchLabel, INSTITUTION_STATUSES, INSTITUTION_TYPES } from "../../../domain/institution.ts";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { inputClassName } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable, type FilterDef } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { loadFailure } from "../../components/ui/load_failed.tsx";
import { formatDate, titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { newInstitutionDialogOpenAtom } from "../../lib/ui_state.ts";
import { handleMutationError, isUnauthorizedError } from "../../lib/unauthorized.ts";
import { InstitutionLink } from "../../components/institution_link.tsx";
import { StatusAction } from "./status_action.tsx";
import { PAGE_SIZE, useInstitutionPage, useRefetchInstitutionPage } from "./api.ts";
import type { Institution } from "./types.ts";
import { useServerPaging } from "../../lib/server_paging.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { actionsColumn, statusColumn } from "../../components/columns.tsx";

const FILTERS: FilterDef[] = [
  {
    columnId: "status",
    label: "Filter by status",
    allLabel: "All statuses",
    options: INSTITUTION_STATUSES.map((status) => ({ value: status, label: titleCase(status) })),
  },
  {
    columnId: "type",
    label: "Filter by type",
    allLabel: "All types",
    options: INSTITUTION_TYPES.map((type) => ({ value: type, label: titleCase(type) })),
  },
];

const COLUMNS: ColumnDef<Institution>[] = [
  {
    accessorKey: "name",
    header: "Institution",
    cell: ({ row }) => (
      <>
        <InstitutionLink id={row.original.id} name={row.original.name} />
        <p className="text-xs text-slate-600">{branchLabel(row.original.numberOfBranches)}</p>
      </>
    ),
  },
  { accessorKey: "type", header: "Type", cell: ({ row }) => titleCase(row.original.type) },
  {
    accessorKey: "registrationNumber",
    header: "Registration Number",
    cell: ({ row }) => row.original.registrationNumber,
    meta: { cellClassName: "font-mono text-xs" },
  },
  statusColumn("status"),
  {
    id: "contact",
    header: "Contact",
    enableSorting: false,
    cell: ({ row }) => (
      <>
        <p>{row.original.emailAddress}</p>
        <p className="text-xs text-slate-600">{row.original.phoneNumber}</p>
      </>
    ),
  },
  { accessorKey: "createdAt", header: "Created", cell: ({ row }) => formatDate(row.original.createdAt) },
  actionsColumn((institution) => <StatusAction institution={institution} />),
];

function SearchForm({ text, setText, onSubmit }: {
  text: string;
  setText: (text: string) => void;
  onSubmit: (event: FormEvent) => void;
}) {
  return (
    <form role="search" noValidate onSubmit={onSubmit} className="flex min-w-0 flex-1 flex-wrap gap-2">
      <label htmlFor="institution-search" className="sr-only">Search institutions</label>
      <input
        id="institution-search"
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Search by name, registration number, licence number or e-mail"
        className={`${inputClassName} min-w-0 max-w-xl flex-1`}
      />
      <Button type="submit" variant="outline">Search</Button>
    </form>
  );
}

/** What the table shows without rows: an empty registry, or nothing matching. */
function emptyRegistry(
  page: { isSuccess: boolean },
  total: number,
  search: string,
  narrowed: boolean,
  openDialog: () => void,
) {
  if (!page.isSuccess || total !== 0) return null;
  if (!narrowed) {
    return (
      <EmptyState
        title="No institutions registered yet"
        text="Register the first financial institution to start the registry."
        action={<IfAllowed method="POST" path="/api/institutions"><Button onClick={openDialog}>Register First Institution</Button></IfAllowed>}
      />
    );
  }
  if (search !== "") return <EmptyState title="No institutions match your search" text={`Nothing found for "${search}".`} />;
  return <EmptyState title="No institutions match these filters" text="Choose another status or type." />;
}

export default function InstitutionsPage() {
  const openDialog = useSetAtom(newInstitutionDialogOpenAtom);
  const refetch = useRefetchInstitutionPage();
  const { toast } = useToast();
  const { offset, sorting, filterValues: filters, texts, setTexts, paging } = useServerPaging(PAGE_SIZE, {
    columns: COLUMNS,
    filters: FILTERS,
    texts: ["search"],
  });
  const search = texts.search;
  const [text, setText] = useState(search);
  // The box follows the address when it changes from outside the form (a link, the history).
  useEffect(() => setText(search), [search]);
  const page = useInstitutionPage({ search, offset, sorting, filters });

  useEffect(() => {
    if (page.isError && search !== "" && !isUnauthorizedError(page.error)) {
      handleMutationError(page.error, toast, "Failed to search institutions");
    }
  }, [page.isError, page.error, search]);

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    const next = text.trim();
    setTexts({ search: next });
    // Searching again for the same text (or reloading the full list) still asks the server.
    if (next === search && offset === 0) refetch({ search: next, offset: 0, sorting, filters });
  };

  const total = page.data?.total ?? 0;
  const narrowed = search !== "" || Object.values(filters).some(Boolean);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Financial Institutions"
        subtitle="Register, approve and supervise banks, credit unions and other institutions"
      />
      <Card>
        <CardContent className="space-y-4 pt-5">
          <DataTable
            label="Financial institutions"
            columns={COLUMNS}
            rows={page.data?.items ?? []}
            isLoading={page.isLoading}
            filters={FILTERS}
            toolbar={<SearchForm text={text} setText={setText} onSubmit={submitSearch} />}
            server={paging(total, page.isFetching)}
            empty={emptyRegistry(page, total, search, narrowed, () => openDialog(true))}
            failure={loadFailure(page, search === "" ? "Failed to load institutions." : "Failed to search institutions.")}
          />
        </CardContent>
      </Card>
    </div>
  );
}
