/**
 * The one table for every list screen, on TanStack Table: sortable columns, select
 * filters, paging, a header that stays in view while the rows scroll, loading rows and the screen's
 * own empty state. Two modes:
 * - client: the screen has every row; sorting, filtering and paging happen here;
 * - server: the screen passes one page plus the total (X-Total-Count) and is told when the sort,
 *   a filter or the page changes, and asks the server for that page (limit/offset).
 * Either way the sort, filters and page live in the address (client mode here, server mode in
 * useServerPaging), so a reload or a shared link shows the same rows. When the columns are wider
 * than the table's region (a phone), the first column (the row's key) stays pinned while the others
 * scroll sideways inside that region, never the page.
 */
import {
  type ColumnDef,
  type ColumnFiltersState,
  flexRender,
  type Header,
  type Row,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type PaginationState,
  type SortingState,
  type Table,
  useReactTable,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ChevronsUpDown } from "lucide-react";
import { type ReactNode, useEffect, useId } from "react";
import { useTableUrlState } from "../../lib/table_url_state.ts";
import { Button } from "./button.tsx";
import { inputClassName, type Option } from "./form.tsx";
import { LoadFailed, type LoadFailure } from "./load_failed.tsx";
import { Skeleton } from "./spinner.tsx";

export type { ColumnDef, SortingState };

/** Per-column presentation, set in a column's `meta`. */
export interface ColumnMeta {
  /** Classes for the body cells (e.g. "font-mono text-xs"). */
  cellClassName?: string;
  /** Classes for the header cell, e.g. to hide a column on narrow screens with its cells. */
  headerClassName?: string;
  /** A header shown to screen readers only (an actions column). */
  srOnlyHeader?: boolean;
}

/** A select above the table that keeps the rows whose column `columnId` equals the chosen value. */
export interface FilterDef {
  columnId: string;
  label: string;
  allLabel: string;
  options: readonly Option[];
}

export const CLIENT_PAGE_SIZE = 50;
const LOADING_ROWS = 5;

export interface ServerPaging {
  total: number;
  offset: number;
  pageSize: number;
  onOffsetChange: (offset: number) => void;
  /** True while the next page is on its way: the paging buttons wait for it. */
  isFetching: boolean;
  sorting: SortingState;
  onSortingChange: (sorting: SortingState) => void;
  filterValues: Record<string, string>;
  onFilterChange: (columnId: string, value: string) => void;
}

export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: ColumnDef<T, any>[];
  rows: readonly T[];
  /** The row's key; its `id` unless given. */
  getRowId?: (row: T) => string;
  isLoading: boolean;
  /** Shown instead of the rows when there are none (the screen's empty states). */
  empty?: ReactNode;
  /** Set when the rows could not be loaded: shown with its Retry instead of the rows. */
  failure?: LoadFailure | null;
  /** Client mode: prefix of the address's params when a screen shows more than one table. */
  urlKey?: string;
  filters?: readonly FilterDef[];
  /** Extra controls beside the filters, e.g. a search box. */
  toolbar?: ReactNode;
  /** Present in server mode. */
  server?: ServerPaging;
  /** Client mode: rows per page. */
  pageSize?: number;
  initialSorting?: SortingState;
  /** Placeholder rows while loading. */
  loadingRows?: number;
}

function SortIcon({ direction }: { direction: false | "asc" | "desc" }) {
  const Icon = direction === "asc" ? ArrowUp : direction === "desc" ? ArrowDown : ChevronsUpDown;
  return (
    <Icon aria-hidden="true" className={`h-3.5 w-3.5 shrink-0 ${direction ? "text-slate-900" : "text-slate-500"}`} />
  );
}

function FilterBar({ filters, toolbar, value, onChange }: {
  filters: readonly FilterDef[];
  toolbar?: ReactNode;
  value: (columnId: string) => string;
  onChange: (columnId: string, value: string) => void;
}) {
  const filterId = useId();
  return (
    <div className="flex flex-wrap items-end gap-2">
      {toolbar && <div className="flex w-full min-w-0 flex-wrap items-end gap-2 sm:w-auto sm:min-w-80 sm:flex-1">{toolbar}</div>}
      {filters.map((filter) => (
        <div key={filter.columnId} className="min-w-36 flex-1 sm:flex-none">
          <label htmlFor={`${filterId}-${filter.columnId}`} className="sr-only">{filter.label}</label>
          <select
            id={`${filterId}-${filter.columnId}`}
            value={value(filter.columnId)}
            onChange={(event) => onChange(filter.columnId, event.target.value)}
            className={inputClassName}
          >
            <option value="">{filter.allLabel}</option>
            {filter.options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
          </select>
        </div>
      ))}
    </div>
  );
}

/**
 * The first column (the row's key) stays in view while the others scroll sideways; on a phone its
 * text wraps within 40% of the window so that the other columns keep room.
 */
const PINNED_CELL = "sticky left-0 bg-white shadow-[inset_-1px_0_0_var(--color-slate-200)]";
const PINNED_CONTENT = "max-w-[40vw] break-words sm:max-w-none";

function HeaderCell<T>({ header }: { header: Header<T, unknown> }) {
  const meta = header.column.columnDef.meta as ColumnMeta | undefined;
  const direction = header.column.getIsSorted();
  const content = flexRender(header.column.columnDef.header, header.getContext());
  return (
    <th
      scope="col"
      aria-sort={direction === "asc" ? "ascending" : direction === "desc" ? "descending" : undefined}
      className={`h-10 px-3 text-left align-middle text-xs font-semibold uppercase tracking-wide text-slate-600 ${
        header.index === 0 ? `${PINNED_CELL} z-20` : ""
      } ${meta?.headerClassName ?? ""}`}
    >
      {meta?.srOnlyHeader
        ? <span className="sr-only">{content}</span>
        : header.column.getCanSort()
        ? (
          <button
            type="button"
            onClick={header.column.getToggleSortingHandler()}
            className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
          >
            {content}
            <SortIcon direction={direction} />
          </button>
        )
        : content}
    </th>
  );
}

function LoadingRows({ columnCount }: { columnCount: number }) {
  return Array.from({ length: LOADING_ROWS }, (_, row) => (
    <tr key={row} data-testid="loading-row">
      {Array.from({ length: columnCount }, (_, cell) => (
        <td key={cell} className={`px-3 py-3 ${cell === 0 ? PINNED_CELL : ""}`}>
          <Skeleton className="h-4 w-full" />
        </td>
      ))}
    </tr>
  ));
}

function BodyRow<T>({ row }: { row: Row<T> }) {
  return (
    <tr className="group hover:bg-slate-50">
      {row.getVisibleCells().map((cell, index) => {
        const meta = cell.column.columnDef.meta as ColumnMeta | undefined;
        const content = flexRender(cell.column.columnDef.cell, cell.getContext());
        return (
          <td
            key={cell.id}
            className={`px-3 py-3 align-middle text-slate-800 ${meta?.cellClassName ?? ""} ${
              index === 0 ? `${PINNED_CELL} z-[1] group-hover:bg-slate-50` : ""
            }`}
          >
            {index === 0 ? <div className={PINNED_CONTENT}>{content}</div> : content}
          </td>
        );
      })}
    </tr>
  );
}

function Grid<T>({ table, label, isLoading, failed, columnCount }: {
  table: Table<T>;
  label: string;
  isLoading: boolean;
  /** The rows could not be loaded: the rows of an earlier answer are not shown beside the failure. */
  failed: boolean;
  columnCount: number;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="relative max-h-[70vh] w-full overflow-auto rounded-md focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
    >
      <table aria-label={label} className="w-full text-sm">
        <thead className="sticky top-0 z-10 bg-white shadow-[inset_0_-1px_0_var(--color-slate-200)]">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => <HeaderCell key={header.id} header={header} />)}
            </tr>
          ))}
        </thead>
        <tbody className="divide-y divide-slate-100">
          {isLoading && <LoadingRows columnCount={columnCount} />}
          {!failed && table.getRowModel().rows.map((row) => <BodyRow key={row.id} row={row} />)}
        </tbody>
      </table>
    </div>
  );
}

function Pager({ offset, pageSize, total, isFetching, goTo }: {
  offset: number;
  pageSize: number;
  total: number;
  isFetching: boolean | undefined;
  goTo: (offset: number) => void;
}) {
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-2">
      <p className="text-sm text-slate-600" aria-live="polite">
        Showing {(offset + 1).toLocaleString()}–{Math.min(offset + pageSize, total).toLocaleString()} of
        {" "}
        {total.toLocaleString()}
      </p>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={offset === 0 || isFetching}
          onClick={() => goTo(Math.max(0, offset - pageSize))}
        >
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={offset + pageSize >= total || isFetching}
          onClick={() => goTo(offset + pageSize)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}

const rowId = (row: unknown) => String((row as { id: unknown }).id);

type Updater<S> = S | ((old: S) => S);
const resolve = <S,>(updater: Updater<S>, old: S): S =>
  typeof updater === "function" ? (updater as (old: S) => S)(old) : updater;

/**
 * Client mode's sort, filters and page, read from and written to the address. A page past the end
 * (rows gone since the link was shared) is moved to the last page there is.
 */
function useClientState<T>(props: DataTableProps<T>) {
  const url = useTableUrlState({ key: props.urlKey, columns: props.columns, filters: props.filters });
  const sorting = url.sorting.length > 0 ? url.sorting : props.initialSorting ?? [];
  const columnFilters: ColumnFiltersState = Object.entries(url.filterValues)
    .filter(([, value]) => value !== "")
    .map(([id, value]) => ({ id, value }));
  const pagination: PaginationState = { pageIndex: url.pageIndex, pageSize: props.pageSize ?? CLIENT_PAGE_SIZE };
  return {
    sorting,
    columnFilters,
    pagination,
    setSorting: (next: SortingState) => url.update({ sorting: next }),
    setColumnFilters: (updater: Updater<ColumnFiltersState>) => {
      const next = resolve(updater, columnFilters);
      const values = Object.fromEntries(Object.keys(url.filterValues).map((id) => [id, ""]));
      for (const filter of next) values[filter.id] = String(filter.value ?? "");
      url.update({ values });
    },
    setPagination: (updater: Updater<PaginationState>) => url.update({ pageIndex: resolve(updater, pagination).pageIndex }),
  };
}

/** TanStack's table, sorted, filtered and paged here in client mode and by the server in server mode. */
function useTable<T>(props: DataTableProps<T>) {
  const { columns, rows, getRowId = rowId, server } = props;
  const client = useClientState(props);
  const sorting = server ? server.sorting : client.sorting;
  const table = useReactTable<T>({
    data: rows as T[],
    columns,
    getRowId,
    state: server ? { sorting } : { sorting, columnFilters: client.columnFilters, pagination: client.pagination },
    onSortingChange: (updater) => {
      const next = resolve(updater, sorting);
      if (server) server.onSortingChange(next);
      else client.setSorting(next);
    },
    onColumnFiltersChange: client.setColumnFilters,
    onPaginationChange: client.setPagination,
    manualSorting: Boolean(server),
    manualFiltering: Boolean(server),
    manualPagination: Boolean(server),
    enableSortingRemoval: false,
    // A new sort or filter goes back to the first page in the same change of the address.
    autoResetPageIndex: false,
    getCoreRowModel: getCoreRowModel(),
    ...(server ? {} : {
      getSortedRowModel: getSortedRowModel(),
      getFilteredRowModel: getFilteredRowModel(),
      getPaginationRowModel: getPaginationRowModel(),
    }),
  });
  useLastPageAtMost(props, table.getPageCount(), client.pagination, client.setPagination);
  return { table, columnFilters: client.columnFilters, pagination: client.pagination };
}

/**
 * A page past the end (an address shared before rows went, or kept while the filters were not)
 * moves to the last page there is, once the rows have come and not failed.
 */
function useLastPageAtMost<T>(
  { server, isLoading, failure }: DataTableProps<T>,
  clientPageCount: number,
  clientPagination: PaginationState,
  setClientPagination: (pagination: PaginationState) => void,
) {
  const pageCount = server ? Math.ceil(server.total / server.pageSize) : clientPageCount;
  const lastPage = Math.max(0, pageCount - 1);
  const pageIndex = server ? Math.floor(server.offset / server.pageSize) : clientPagination.pageIndex;
  const settled = !isLoading && !failure && !server?.isFetching;
  const pastTheEnd = settled && pageIndex > lastPage;
  useEffect(() => {
    if (!pastTheEnd) return;
    if (server) server.onOffsetChange(lastPage * server.pageSize);
    else setClientPagination({ ...clientPagination, pageIndex: lastPage });
  }, [pastTheEnd, lastPage]);
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { label, isLoading, empty, failure, filters = [], toolbar, server } = props;
  const { table, columnFilters, pagination } = useTable(props);

  const filterValue = (columnId: string) =>
    server
      ? server.filterValues[columnId] ?? ""
      : (columnFilters.find((filter) => filter.id === columnId)?.value as string | undefined) ?? "";
  const setFilter = (columnId: string, value: string) => {
    if (server) server.onFilterChange(columnId, value);
    else table.getColumn(columnId)?.setFilterValue(value === "" ? undefined : value);
  };

  const total = server ? server.total : table.getFilteredRowModel().rows.length;
  const offset = server ? server.offset : pagination.pageIndex * pagination.pageSize;
  const pageSize = server ? server.pageSize : pagination.pageSize;
  const goTo = (nextOffset: number) => {
    if (server) server.onOffsetChange(nextOffset);
    else table.setPageIndex(Math.floor(nextOffset / pageSize));
  };

  return (
    <div className="space-y-3">
      {(filters.length > 0 || toolbar) && (
        <FilterBar filters={filters} toolbar={toolbar} value={filterValue} onChange={setFilter} />
      )}
      <Grid
        table={table}
        label={label}
        isLoading={isLoading && !failure}
        failed={Boolean(failure)}
        columnCount={props.columns.length}
      />
      {failure ? <LoadFailed failure={failure} /> : !isLoading && table.getRowModel().rows.length === 0 && empty}
      {!failure && (total > pageSize || (server && total > 0))
        ? <Pager offset={offset} pageSize={pageSize} total={total} isFetching={server?.isFetching} goTo={goTo} />
        : null}
    </div>
  );
}
