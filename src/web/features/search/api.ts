/** GET /api/search/everywhere, asked as the palette's text settles. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";

export interface SearchHit {
  id: string;
  label: string;
  detail: string;
  link: string;
}

export interface SearchGroup {
  kind: string;
  label: string;
  hits: SearchHit[];
  more: boolean;
  timedOut: boolean;
}

/** Wait this long after the last keystroke before asking the server: one request per pause, not per key. */
export const TYPING_PAUSE_MS = 200;
/** The server's bound on the text (src/server/features/search/schemas.ts). */
export const MAX_QUERY_LENGTH = 100;
const HITS_PER_KIND = 5;

/** `value`, once it has stopped changing for `delayMs`. */
export function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** The groups found for the trimmed text; none for a blank one. Kept while the next text is asked. */
export function useEverywhereSearch(text: string) {
  const q = text.trim();
  const params = new URLSearchParams({ q, limit: String(HITS_PER_KIND) });
  return useQuery<{ query: string; groups: SearchGroup[] }>({
    queryKey: [`/api/search/everywhere?${params}`],
    enabled: q !== "",
    placeholderData: keepPreviousData,
    // The registry changes while the console is open: a text asked again is asked of the server.
    staleTime: 0,
  });
}
