/**
 * The header's search button, and Ctrl-K / Cmd-K anywhere in the console: both open the command
 * palette, whose code loads on the first open and then stays mounted.
 */
import { Search } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { Button } from "../../components/ui/button.tsx";

const SearchPalette = lazy(() => import("./search_palette.tsx"));

const onApple = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

export function SearchButton() {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const show = () => {
    setWanted(true);
    setOpen(true);
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (
        !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== "k"
      ) return;
      event.preventDefault();
      show();
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  }, []);
  return (
    <>
      <Button
        variant="outline"
        className="px-2.5 sm:px-3"
        aria-label="Search everywhere"
        aria-keyshortcuts="Control+K Meta+K"
        onClick={show}
        data-testid="search-button"
      >
        <Search aria-hidden="true" className="h-4 w-4" />
        <span className="hidden sm:inline">Search</span>
        <kbd
          aria-hidden="true"
          className="hidden rounded border border-slate-300 px-1 font-sans text-xs text-slate-600 md:inline"
        >
          {onApple ? "⌘K" : "Ctrl K"}
        </kbd>
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <SearchPalette open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
