/**
 * What drops from a header button (the New and account menus, the bell's popover). Positioned in
 * place rather than anchored: an anchored panel is portalled with focus sentinels that axe-core
 * reports as focusable inside aria-hidden.
 */
export const HEADER_PANEL =
  "absolute right-0 z-50 mt-2 max-w-[calc(100vw-2rem)] overflow-hidden rounded-md border border-slate-200 bg-white shadow-lg focus:outline-none";

/** One entry of a header menu. */
export const MENU_ITEM =
  "block w-full px-4 py-2 text-left text-sm text-slate-800 data-[focus]:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50";
