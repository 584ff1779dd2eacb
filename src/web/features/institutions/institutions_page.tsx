/**
 * Financial Institutions (spec 2.4): search, the registry table a page at a time (sorted and filtered
 * by the server), a status action
 * per row (Approve, Suspend, Reactivate), and the New Institution dialog.
 */
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSetAtom } from "jotai";
import { type FormEvent, useEffect, useState } from "react";
import { branchLabel, INSTITUTION_STATUSES, INSTITUTION_TYPES } from "../../../domain/institution.ts";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { inputClassName } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable, type FilterDef, type SortingState } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { apiRequest } from "../../lib/api.ts";
import { formatDate, titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { newInstitutionDialogOpenAtom } from "../../lib/ui_state.ts";
import { handleMutationError, isUnauthorizedError } from "../../lib/unauthorized.ts";
import { InstitutionLink } from "../../components/institution_link.tsx";
import { StatusAction } from "./status_action.tsx";
import { type Institution, INSTITUTIONS_KEY } from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";

export const PAGE_SIZE = 100;

interface InstitutionPage {
  items: Institution[];
  total: number;
}

interface ListQuery {
  search: string;
  offset: number;
  sorting: SortingState;
  filters: Record<string, string>;
}

async function fetchPage({ search, offset, sorting, filters }: ListQuery): Promise<InstitutionPage> {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
  if (search) params.set("search", search);
  if (sorting[0]) {
    params.set("sort", sorting[0].id);
    params.set("order", sorting[0].desc ? "desc" : "asc");
  }
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  const res = await apiRequest("GET", `${INSTITUTIONS_KEY}?${params}`);
  const items = (await res.json()) as Institution[];
  return { items, total: Number(res.headers.get("X-Total-Count") ?? items.length) };
}

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
  { accessorKey: "status", header: "Status", cell: ({ row }) => <StatusBadge status={row.original.status} /> },
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
  {
    id: "actions",
    header: "Actions",
    enableSorting: false,
    meta: { srOnlyHeader: true, cellClassName: "text-right" },
    cell: ({ row }) => <StatusAction institution={row.original} />,
  },
];

export default function InstitutionsPage() {
  const openDialog = useSetAtom(newInstitutionDialogOpenAtom);
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filters, setFilters] = useState<Record<string, string>>({});

  const page = useQuery({
    queryKey: [INSTITUTIONS_KEY, { search, offset, sorting, filters }],
    queryFn: () => fetchPage({ search, offset, sorting, filters }),
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
      queryClient.invalidateQueries({ queryKey: [INSTITUTIONS_KEY, { search: next, offset: 0, sorting, filters }] });
    }
  };

  const items = page.data?.items ?? [];
  const total = page.data?.total ?? 0;
  const narrowed = search !== "" || Object.values(filters).some(Boolean);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Financial Institutions"
        subtitle="Register, approve and supervise banks, credit unions and other institutions"
        actions={<IfAllowed method="POST" path="/api/institutions"><Button onClick={() => openDialog(true)}>New Institution</Button></IfAllowed>}
      />
      <Card>
        <CardContent className="space-y-4 pt-5">
          <DataTable
            label="Financial institutions"
            columns={COLUMNS}
            rows={items}
            getRowId={(institution) => institution.id}
            isLoading={page.isLoading}
            filters={FILTERS}
            toolbar={
              <form role="search" noValidate onSubmit={submitSearch} className="flex min-w-0 flex-1 flex-wrap gap-2">
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
            }
            server={{
              total,
              offset,
              pageSize: PAGE_SIZE,
              onOffsetChange: setOffset,
              isFetching: page.isFetching,
              sorting,
              onSortingChange: (next) => {
                setSorting(next);
                setOffset(0);
              },
              filterValues: filters,
              onFilterChange: (columnId, value) => {
                setFilters((current) => ({ ...current, [columnId]: value }));
                setOffset(0);
              },
            }}
            empty={page.isError && search === ""
              ? <p role="alert" className="text-sm text-red-700">Failed to load institutions.</p>
              : page.isSuccess && total === 0 && !narrowed
              ? (
                <EmptyState
                  title="No institutions registered yet"
                  text="Register the first financial institution to start the registry."
                  action={<IfAllowed method="POST" path="/api/institutions"><Button onClick={() => openDialog(true)}>Register First Institution</Button></IfAllowed>}
                />
              )
              : page.isSuccess && total === 0 && search !== ""
              ? <EmptyState title="No institutions match your search" text={`Nothing found for "${search}".`} />
              : page.isSuccess && total === 0
              ? <EmptyState title="No institutions match these filters" text="Choose another status or type." />
              : null}
          />
        </CardContent>
      </Card>
    </div>
  );
}
