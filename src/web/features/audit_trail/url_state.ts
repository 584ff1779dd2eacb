/**
 * The audit trail's filters, page and order live in the address (?actor=…&action=…&page=2), so a
 * reload, the back button and a shared link show the same events.
 */
import { useSearchParams } from "react-router";
import type { ServerPaging, SortingState } from "../../components/ui/data_table.tsx";
import { setSortParams } from "../../lib/api.ts";
import { AUDIT_KEY } from "./api.ts";

export interface AuditFilters {
  actor: string;
  entityType: string;
  action: string;
  /** Local days, YYYY-MM-DD, as the date fields give them. */
  from: string;
  to: string;
  search: string;
}

const FILTER_NAMES = ["actor", "entityType", "action", "from", "to", "search"] as const;
export const EMPTY_FILTERS: AuditFilters = {
  actor: "",
  entityType: "",
  action: "",
  from: "",
  to: "",
  search: "",
};
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function filtersOf(params: URLSearchParams): AuditFilters {
  const filters = { ...EMPTY_FILTERS };
  for (const name of FILTER_NAMES) filters[name] = params.get(name)?.trim() ?? "";
  // A hand-edited day the date field cannot show is dropped rather than sent to the server.
  if (!DAY.test(filters.from)) filters.from = "";
  if (!DAY.test(filters.to)) filters.to = "";
  return filters;
}

/** The API's query for these filters: the browser's local day boundaries as instants the server compares with. */
export function apiQueryOf(
  filters: AuditFilters,
  offset: number,
  pageSize: number,
  sorting: SortingState,
): string {
  const params = new URLSearchParams({ limit: String(pageSize), offset: String(offset) });
  setSortParams(params, sorting);
  if (filters.actor) params.set("actor", filters.actor);
  if (filters.entityType) params.set("entityType", filters.entityType);
  if (filters.action) params.set("action", filters.action);
  if (filters.search) params.set("search", filters.search);
  if (filters.from) params.set("from", new Date(`${filters.from}T00:00:00`).toISOString());
  if (filters.to) params.set("to", new Date(`${filters.to}T23:59:59.999`).toISOString());
  return `${AUDIT_KEY}?${params}`;
}

export interface AuditUrlState {
  filters: AuditFilters;
  offset: number;
  sorting: SortingState;
  setFilters: (filters: AuditFilters) => void;
  /** The DataTable's `server` prop, its page and order kept in the address. */
  paging: (total: number, isFetching: boolean) => ServerPaging;
}

export function useAuditUrlState(pageSize: number): AuditUrlState {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const page = Math.max(1, Math.floor(Number(params.get("page")) || 1));
  const offset = (page - 1) * pageSize;
  const sort = params.get("sort");
  const sorting: SortingState = sort ? [{ id: sort, desc: params.get("order") === "desc" }] : [];
  const update = (change: (next: URLSearchParams) => void) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      change(next);
      return next;
    });
  const setOrDelete = (next: URLSearchParams, name: string, value: string) =>
    value ? next.set(name, value) : next.delete(name);
  const setFilters = (next: AuditFilters) =>
    update((url) => {
      for (const name of FILTER_NAMES) setOrDelete(url, name, next[name].trim());
      url.delete("page");
    });
  const paging = (total: number, isFetching: boolean): ServerPaging => ({
    total,
    offset,
    pageSize,
    isFetching,
    onOffsetChange: (nextOffset) =>
      update((url) =>
        setOrDelete(url, "page", nextOffset > 0 ? String(Math.floor(nextOffset / pageSize) + 1) : "")
      ),
    sorting,
    onSortingChange: (next) =>
      update((url) => {
        setOrDelete(url, "sort", next[0]?.id ?? "");
        setOrDelete(url, "order", next[0] ? (next[0].desc ? "desc" : "asc") : "");
        url.delete("page");
      }),
    // The filters are the form's above the table, not the table's own column filters.
    filterValues: {},
    onFilterChange: () => {},
  });
  return { filters, offset, sorting, setFilters, paging };
}
