/**
 * A list's sort, filters, search and page kept in the address's search params, so that a reload or
 * a shared link shows the same rows. Values the list does not offer (a column that cannot sort, a
 * filter value not among its options) are ignored rather than sent to the server.
 */
import type { ColumnDef, SortingState } from "@tanstack/react-table";
import { useSearchParams } from "react-router";

/** The filters a list offers: a column's select and the values it may hold. */
export interface UrlFilter {
  columnId: string;
  options: readonly { value: string }[];
}

export interface TableUrlOptions {
  /** Prefix of the params when a screen shows more than one list ("sweeps" gives sweeps.sort). */
  key?: string;
  /** The list's columns: a sort in the address must name one that sorts. */
  columns?: readonly ColumnDef<any, any>[];
  filters?: readonly UrlFilter[];
  /** Free-text params the list also keeps (a search box), by name. */
  texts?: readonly string[];
}

export interface TableUrlChange {
  sorting?: SortingState;
  /** Filters and texts by name; "" removes one. */
  values?: Record<string, string>;
  /** Zero-based; any other change goes back to the first page. */
  pageIndex?: number;
}

export interface TableUrlState {
  sorting: SortingState;
  /** Each offered filter's value ("" for all). */
  filterValues: Record<string, string>;
  /** Each kept text ("" when absent). */
  texts: Record<string, string>;
  pageIndex: number;
  update: (change: TableUrlChange) => void;
}

function columnId(column: ColumnDef<any, any>): string | undefined {
  const { id, accessorKey } = column as { id?: string; accessorKey?: string };
  return id ?? accessorKey;
}

/** The ids of the columns that sort; undefined (any id) when the list did not say. */
function sortableIds(columns: readonly ColumnDef<any, any>[] | undefined): Set<string> | undefined {
  if (!columns) return undefined;
  return new Set(columns.filter((column) => column.enableSorting !== false).map(columnId).filter((id) => id !== undefined));
}

function readSorting(params: URLSearchParams, name: (param: string) => string, allowed: Set<string> | undefined) {
  const id = params.get(name("sort"));
  if (!id || (allowed && !allowed.has(id))) return [];
  return [{ id, desc: params.get(name("order")) === "desc" }];
}

function readPageIndex(params: URLSearchParams, name: (param: string) => string): number {
  const page = Number(params.get(name("page")));
  return Number.isInteger(page) && page > 1 ? page - 1 : 0;
}

export function useTableUrlState(options: TableUrlOptions = {}): TableUrlState {
  const [params, setParams] = useSearchParams();
  const name = (param: string) => options.key ? `${options.key}.${param}` : param;
  const filterValues: Record<string, string> = {};
  for (const filter of options.filters ?? []) {
    const value = params.get(name(filter.columnId)) ?? "";
    filterValues[filter.columnId] = filter.options.some((option) => option.value === value) ? value : "";
  }
  const texts: Record<string, string> = {};
  for (const text of options.texts ?? []) texts[text] = params.get(name(text)) ?? "";

  const update = (change: TableUrlChange) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      const put = (param: string, value: string | undefined) =>
        value ? next.set(name(param), value) : next.delete(name(param));
      if (change.sorting) {
        put("sort", change.sorting[0]?.id);
        put("order", change.sorting[0] ? (change.sorting[0].desc ? "desc" : "asc") : undefined);
      }
      for (const [param, value] of Object.entries(change.values ?? {})) put(param, value);
      put("page", change.pageIndex ? String(change.pageIndex + 1) : undefined);
      return next;
    }, { replace: true });

  return {
    sorting: readSorting(params, name, sortableIds(options.columns)),
    filterValues,
    texts,
    pageIndex: readPageIndex(params, name),
    update,
  };
}

/** A list's free-text param (its search box), kept like its filters: a change goes back to the first page. */
export function useUrlText(name: string, key?: string): [string, (value: string) => void] {
  const state = useTableUrlState({ key, texts: [name] });
  return [state.texts[name], (value) => state.update({ values: { [name]: value } })];
}
