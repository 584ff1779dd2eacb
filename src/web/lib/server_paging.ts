/**
 * The state of a table the server pages: offset, sorting and filters, kept in the address (see
 * table_url_state.ts) so that a reload or a shared link asks for the same page. A new sort, filter
 * or search goes back to the first page.
 */
import type { ServerPaging, SortingState } from "../components/ui/data_table.tsx";
import { type TableUrlOptions, useTableUrlState } from "./table_url_state.ts";

export interface ServerPagingState {
  offset: number;
  setOffset: (offset: number) => void;
  sorting: SortingState;
  filterValues: Record<string, string>;
  /** The kept texts (options.texts), e.g. a search. */
  texts: Record<string, string>;
  /** Sets kept texts and goes back to the first page. */
  setTexts: (texts: Record<string, string>) => void;
  /** The DataTable's `server` prop for the page the server answered. */
  paging: (total: number, isFetching: boolean) => ServerPaging;
}

export function useServerPaging(pageSize: number, options: TableUrlOptions = {}): ServerPagingState {
  const state = useTableUrlState(options);
  const offset = state.pageIndex * pageSize;
  const setOffset = (next: number) => state.update({ pageIndex: Math.floor(next / pageSize) });
  const paging = (total: number, isFetching: boolean): ServerPaging => ({
    total,
    offset,
    pageSize,
    onOffsetChange: setOffset,
    isFetching,
    sorting: state.sorting,
    onSortingChange: (sorting) => state.update({ sorting }),
    filterValues: state.filterValues,
    onFilterChange: (columnId, value) => state.update({ values: { [columnId]: value } }),
  });
  return {
    offset,
    setOffset,
    sorting: state.sorting,
    filterValues: state.filterValues,
    texts: state.texts,
    setTexts: (texts) => state.update({ values: texts }),
    paging,
  };
}
