/**
 * The command palette: one text box over the screens the user can use (matched here, from the
 * navigation) and the records the server finds (GET /api/search/everywhere), grouped by kind. Arrows
 * move through the results, Enter opens the active one, Escape closes. A Headless UI Combobox in a
 * Dialog: the input is the combobox, the results its listbox, the active one its aria-activedescendant.
 */
import {
  Combobox,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Dialog,
  DialogBackdrop,
  DialogPanel,
  DialogTitle,
} from "@headlessui/react";
import { Search } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { reachableNavItems } from "../../components/layout/nav_items.ts";
import { useAuth } from "../../lib/auth.ts";
import {
  MAX_QUERY_LENGTH,
  type SearchGroup,
  type SearchHit,
  TYPING_PAUSE_MS,
  useEverywhereSearch,
  useSettled,
} from "./api.ts";

const SCREENS_KIND = "screen";

/** The usable screens whose name holds the text (all of them for a blank text), as the palette's first group. */
function screenGroup(roles: Parameters<typeof reachableNavItems>[0], text: string): SearchGroup {
  const needle = text.trim().toLowerCase();
  const screens = reachableNavItems(roles).filter((item) => item.label.toLowerCase().includes(needle));
  return {
    kind: SCREENS_KIND,
    label: "Screens",
    hits: screens.map((item) => ({
      id: item.path,
      label: item.label,
      detail: item.group ?? "Overview",
      link: item.path,
    })),
    more: false,
    timedOut: false,
  };
}

/** What the live region says under the results: searching, nothing found, or a kind that did not answer. */
function statusText(text: string, groups: SearchGroup[], searching: boolean, failed: boolean): string {
  if (failed) return "Failed to perform search";
  if (text.trim() !== "" && searching) return "Searching…";
  const late = groups.filter((group) => group.timedOut).map((group) => group.label);
  if (late.length > 0) return `${late.join(", ")} took too long to search; type on to try again.`;
  const count = groups.reduce((sum, group) => sum + group.hits.length, 0);
  if (count === 0) return "No results found: No matching records found for your search.";
  return `${count} result${count === 1 ? "" : "s"}`;
}

function ResultGroup({ group }: { group: SearchGroup }) {
  const headingId = `search-group-${group.kind}`;
  return (
    <div role="group" aria-labelledby={headingId}>
      <div
        id={headingId}
        className="px-4 pb-1 pt-3 text-xs font-semibold uppercase tracking-wide text-slate-600"
      >
        {group.label}
        {group.more && (
          <span className="font-normal normal-case tracking-normal">· more match, type on to narrow</span>
        )}
      </div>
      {group.hits.map((hit) => (
        <ComboboxOption
          key={`${group.kind}:${hit.id}`}
          value={hit}
          className="cursor-pointer select-none px-4 py-2 data-focus:bg-blue-50 data-focus:text-blue-900"
          data-testid="search-result"
        >
          <span className="block truncate text-sm font-medium text-slate-900">{hit.label}</span>
          <span className="block truncate text-xs text-slate-600">{hit.detail}</span>
        </ComboboxOption>
      ))}
    </div>
  );
}

export default function SearchPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [text, setText] = useState("");
  const settled = useSettled(text, TYPING_PAUSE_MS);
  const search = useEverywhereSearch(settled);
  const { user } = useAuth();
  const navigate = useNavigate();
  const found = settled.trim() === "" ? [] : search.data?.groups ?? [];
  const groups = [screenGroup(user?.roles ?? [], text), ...found].filter((group) =>
    group.hits.length > 0 || group.timedOut
  );
  const searching = text !== settled || search.isFetching;
  const close = () => {
    setText("");
    onClose();
  };
  const choose = (hit: SearchHit | null) => {
    if (!hit) return;
    close();
    navigate(hit.link);
  };
  return (
    <Dialog open={open} onClose={close} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 overflow-y-auto p-4 sm:p-6 md:p-20">
        <DialogPanel
          className="mx-auto max-w-xl overflow-hidden rounded-lg bg-white shadow-xl ring-1 ring-black/5"
          data-testid="search-palette"
        >
          <DialogTitle className="sr-only">Search everywhere</DialogTitle>
          <Combobox<SearchHit | null> onChange={choose}>
            <div className="relative border-b border-slate-200">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute left-4 top-3.5 h-5 w-5 text-slate-500"
              />
              <ComboboxInput
                autoFocus
                aria-label="Search institutions, codes, accounts, users and screens"
                placeholder="Search institutions, codes, accounts, users, screens…"
                maxLength={MAX_QUERY_LENGTH}
                autoComplete="off"
                className="h-12 w-full border-0 bg-transparent pl-12 pr-4 text-sm text-slate-900 placeholder:text-slate-500 focus:outline-none focus:ring-0"
                onChange={(event) => setText(event.target.value)}
              />
            </div>
            {groups.length > 0 && (
              <ComboboxOptions static className="max-h-[60vh] overflow-y-auto pb-2">
                {groups.map((group) => <ResultGroup key={group.kind} group={group} />)}
              </ComboboxOptions>
            )}
          </Combobox>
          <p
            role="status"
            className="border-t border-slate-200 px-4 py-2 text-xs text-slate-600"
            data-testid="search-status"
          >
            {statusText(text, groups, searching, search.isError)}
          </p>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
