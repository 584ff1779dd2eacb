/**
 * The state of a table the server pages: offset, sorting and filters. A new sort or filter goes
 * back to the first page.
 */
import { useState } from "react";
import type { ServerPaging, SortingState } from "../components/ui/data_table.tsx";

export interface ServerPagingState {
  offset: number;
  setOffset: (offset: number) => void;
  sorting: SortingState;
  filterValues: Record<string, string>;
  /** The DataTable's `server` prop for the page the server answered. */
  paging: (total: number, isFetching: boolean) => ServerPaging;
}

export function useServerPaging(pageSize: number): ServerPagingState {
  const [offset, setOffset] = useState(0);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filterValues, setFilterValues] = useState<Record<string, string>>({});
  const paging = (total: number, isFetching: boolean): ServerPaging => ({
    total,
    offset,
    pageSize,
    onOffsetChange: setOffset,
    isFetching,
    sorting,
    onSortingChange: (next) => {
      setSorting(next);
      setOffset(0);
    },
    filterValues,
    onFilterChange: (columnId, value) => {
      setFilterValues((current) => ({ ...current, [columnId]: value }));
      setOffset(0);
    },
  });
  return { offset, setOffset, sorting, filterValues, paging };
}
